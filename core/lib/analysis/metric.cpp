#include "analysis/metric.hpp"

#include "analysis/case_bound.hpp"
#include "util/input_error.hpp"

namespace kb {
namespace {

bool smaller_is_better(Metric metric) { return metric == Metric::time || metric == Metric::energy; }

}  // namespace

Metric parse_metric(const std::string& text) {
  if (text == "time") return Metric::time;
  if (text == "gbps") return Metric::gbps;
  if (text == "gflops") return Metric::gflops;
  if (text == "energy") return Metric::energy;
  if (text == "efficiency") return Metric::efficiency;
  throw InputError("unknown --metric '" + text + "' (time, gbps, gflops, energy or efficiency)");
}

const char* metric_name(Metric metric) {
  switch (metric) {
    case Metric::time: return "median_us";
    case Metric::gbps: return "gbps";
    case Metric::gflops: return "gflops";
    case Metric::energy: return "energy_j";
    case Metric::efficiency: return "efficiency";
  }
  return "median_us";
}

const char* metric_unit(Metric metric) {
  switch (metric) {
    case Metric::time: return "median time (us)";
    case Metric::gbps: return "bandwidth (GB/s)";
    case Metric::gflops: return "throughput (GFLOP/s)";
    case Metric::energy: return "board energy per launch (J)";
    case Metric::efficiency: return "energy efficiency (GB/J memory-bound, GFLOP/J compute-bound)";
  }
  return "";
}

std::optional<double> metric_value(const ResultRecord& row, Metric metric) {
  std::optional<double> value;
  switch (metric) {
    case Metric::time: value = row.median_us; break;
    case Metric::gbps: value = row.gbps; break;
    case Metric::gflops: value = row.gflops; break;
    case Metric::energy: value = row.energy_j; break;
    case Metric::efficiency:
      value = moves_bytes(case_bound(row)) ? row.gb_per_j : row.gflop_per_j;
      break;
  }
  if (!value || !measurable(*value)) return std::nullopt;
  return value;
}

bool measurable(double value) { return value >= kLeastMeasurable && value <= kMostMeasurable; }

std::optional<double> measurement(std::optional<double> value) {
  if (!value || !measurable(*value)) return std::nullopt;
  return value;
}

bool better(Metric metric, double a, double b) { return smaller_is_better(metric) ? a < b : a > b; }

double speedup_of(Metric metric, double value, double baseline) {
  return smaller_is_better(metric) ? baseline / value : value / baseline;
}

}  // namespace kb
