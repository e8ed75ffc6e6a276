// What `compare` and `report` measure a case by, read from its row: its time, bandwidth or
// throughput, its board energy per launch, the work it does per joule, or one of the hardware
// counters `kbench run --metrics` put in its `counters` cell.
#pragma once

#include "store/result_record.hpp"

#include <optional>
#include <string>
#include <utility>

namespace kb {

class Metric {
 public:
  enum class Kind { time, gbps, gflops, energy, efficiency, counter };
  static const Metric time, gbps, gflops, energy, efficiency;
  // A counter of the `counters` cell, by its short name or its metric name (device/counters.hpp).
  static Metric counter(const std::string& name);

  Kind kind() const { return kind_; }
  bool is_counter() const { return kind_ == Kind::counter; }
  const std::string& counter_name() const { return counter_; }
  bool operator==(const Metric& other) const {
    return kind_ == other.kind_ && counter_ == other.counter_;
  }
  bool operator!=(const Metric& other) const { return !(*this == other); }

 private:
  explicit Metric(Kind kind, std::string counter = "") : kind_(kind), counter_(std::move(counter)) {}
  Kind kind_;
  std::string counter_;
};

inline const Metric Metric::time{Metric::Kind::time};
inline const Metric Metric::gbps{Metric::Kind::gbps};
inline const Metric Metric::gflops{Metric::Kind::gflops};
inline const Metric Metric::energy{Metric::Kind::energy};
inline const Metric Metric::efficiency{Metric::Kind::efficiency};

// time, gbps, gflops, energy, efficiency, or a counter's name; InputError when unknown.
Metric parse_metric(const std::string& text);

// The metric's name in output: the column it reads ("median_us", "gbps", "gflops", "energy_j"),
// "efficiency", which is `gb_per_j` or `gflop_per_j` by the case's bound, or the counter's name.
std::string metric_name(const Metric& metric);

// "median time (us)", "energy efficiency (GB/J or GFLOP/J)", "counter dram_read_bytes (...)"...
std::string metric_unit(const Metric& metric);

// The range of a value any metric can take, in its unit (us, GB/s, GFLOP/s, J, GB/J, GFLOP/J):
// no device is 10^15 times faster or slower than another, and a time of 10^15 us is 31 years. A
// value outside (0, nan, negative, infinite, 1e308, 1e-300: a hand-edited or foreign file) is no
// measurement: it is left out, as a missing one, so that no ratio or mean of ratios overflows.
inline constexpr double kLeastMeasurable = 1e-12;
inline constexpr double kMostMeasurable = 1e15;
bool measurable(double value);
// A record's value where it is measurable (a device's copy bandwidth, its clock, a case's bytes),
// or nothing.
std::optional<double> measurement(std::optional<double> value);

// The metric of an ok row: a measurable value, or nothing where the row does not report it (a
// transpose has no GFLOP/s; rows without an energy window, and files written before it existed, have no
// energy). Efficiency is GB per joule for a memory-bound case, GFLOP per joule for a
// compute-bound one. A counter may be 0 (no bank conflicts): nothing only where the row has none.
std::optional<double> metric_value(const ResultRecord& row, const Metric& metric);

// Time, energy and most counters (bytes, conflicts, instructions) are better when smaller; the
// others (and throughputs, hit rates, occupancy) when larger.
bool better(const Metric& metric, double a, double b);

// > 1 always means `value` is better than `baseline` (both positive).
double speedup_of(const Metric& metric, double value, double baseline);

}  // namespace kb
