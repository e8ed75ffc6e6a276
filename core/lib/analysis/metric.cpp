#include "analysis/metric.hpp"

#include "analysis/case_bound.hpp"
#include "device/counters.hpp"
#include "util/input_error.hpp"

namespace kb {
namespace {

bool smaller_is_better(const Metric& metric) {
  switch (metric.kind()) {
    case Metric::Kind::time:
    case Metric::Kind::energy: return true;
    case Metric::Kind::counter: return counter_smaller_is_better(metric.counter_name());
    default: return false;
  }
}

}  // namespace

Metric Metric::counter(const std::string& name) { return Metric(Kind::counter, counter_label(name)); }

Metric parse_metric(const std::string& text) {
  if (text == "time") return Metric::time;
  if (text == "gbps") return Metric::gbps;
  if (text == "gflops") return Metric::gflops;
  if (text == "energy") return Metric::energy;
  if (text == "efficiency") return Metric::efficiency;
  if (is_counter_name(text)) return Metric::counter(text);
  throw InputError("unknown --metric '" + text +
                   "' (time, gbps, gflops, energy, efficiency, or a counter of kbench run "
                   "--metrics such as dram_throughput or dram__bytes_read.sum)");
}

std::string metric_name(const Metric& metric) {
  switch (metric.kind()) {
    case Metric::Kind::time: return "median_us";
    case Metric::Kind::gbps: return "gbps";
    case Metric::Kind::gflops: return "gflops";
    case Metric::Kind::energy: return "energy_j";
    case Metric::Kind::efficiency: return "efficiency";
    case Metric::Kind::counter: return metric.counter_name();
  }
  return "median_us";
}

std::string metric_unit(const Metric& metric) {
  switch (metric.kind()) {
    case Metric::Kind::time: return "median time (us)";
    case Metric::Kind::gbps: return "bandwidth (GB/s)";
    case Metric::Kind::gflops: return "throughput (GFLOP/s)";
    case Metric::Kind::energy: return "board energy per launch (J)";
    case Metric::Kind::efficiency:
      return "energy efficiency (GB/J memory-bound, GFLOP/J compute-bound)";
    case Metric::Kind::counter: {
      std::string unit = "counter " + metric.counter_name() + " (";
      for (const NamedCounter& named : named_counters()) {
        if (metric.counter_name() == named.label) unit += std::string(named.meaning) + "; ";
      }
      return unit + (smaller_is_better(metric) ? "smaller" : "larger") +
             " is better; kbench run --metrics)";
    }
  }
  return "";
}

std::optional<double> metric_value(const ResultRecord& row, const Metric& metric) {
  std::optional<double> value;
  switch (metric.kind()) {
    case Metric::Kind::time: value = row.median_us; break;
    case Metric::Kind::gbps: value = row.gbps; break;
    case Metric::Kind::gflops: value = row.gflops; break;
    case Metric::Kind::energy: value = row.energy_j; break;
    case Metric::Kind::efficiency:
      value = moves_bytes(case_bound(row)) ? row.gb_per_j : row.gflop_per_j;
      break;
    case Metric::Kind::counter: {
      value = counter_value(row.counters, metric.counter_name());
      if (!value || !(*value >= 0 && *value <= kMostMeasurable)) return std::nullopt;
      return value;
    }
  }
  if (!value || !measurable(*value)) return std::nullopt;
  return value;
}

bool measurable(double value) { return value >= kLeastMeasurable && value <= kMostMeasurable; }

std::optional<double> measurement(std::optional<double> value) {
  if (!value || !measurable(*value)) return std::nullopt;
  return value;
}

bool better(const Metric& metric, double a, double b) {
  return smaller_is_better(metric) ? a < b : a > b;
}

double speedup_of(const Metric& metric, double value, double baseline) {
  return smaller_is_better(metric) ? baseline / value : value / baseline;
}

}  // namespace kb
