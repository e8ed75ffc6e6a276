// What `compare` and `report` measure a case by, read from its row: its time, bandwidth or
// throughput, its board energy per launch, or the work it does per joule.
#pragma once

#include "store/result_record.hpp"

#include <optional>
#include <string>

namespace kb {

enum class Metric { time, gbps, gflops, energy, efficiency };

Metric parse_metric(const std::string& text);  // InputError when unknown

// The metric's name in output: the column it reads ("median_us", "gbps", "gflops", "energy_j"),
// or "efficiency", which is `gb_per_j` or `gflop_per_j` by the case's bound.
const char* metric_name(Metric metric);

// "median time (us)", "energy efficiency (GB/J or GFLOP/J)", ...
const char* metric_unit(Metric metric);

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
// compute-bound one.
std::optional<double> metric_value(const ResultRecord& row, Metric metric);

// Time and energy are better when smaller, the others when larger.
bool better(Metric metric, double a, double b);

// > 1 always means `value` is better than `baseline`.
double speedup_of(Metric metric, double value, double baseline);

}  // namespace kb
