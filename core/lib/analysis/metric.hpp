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

// The metric of an ok row: positive, or nothing where the row does not report it (a transpose has
// no GFLOP/s; rows without an energy window, and files written before it existed, have no
// energy). Efficiency is GB per joule for a memory-bound case, GFLOP per joule for a
// compute-bound one.
std::optional<double> metric_value(const ResultRecord& row, Metric metric);

// Time and energy are better when smaller, the others when larger.
bool better(Metric metric, double a, double b);

// > 1 always means `value` is better than `baseline`.
double speedup_of(Metric metric, double value, double baseline);

}  // namespace kb
