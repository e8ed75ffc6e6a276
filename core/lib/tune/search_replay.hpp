// `kbench tune --simulate`: the strategies replayed against cases already measured (the rows of
// an exhaustive sweep), with no GPU — a configuration's cost is its measured median — to see how
// many evaluations each needs to come within a few percent of the best configuration.
#pragma once

#include "store/result_record.hpp"
#include "tune/search.hpp"
#include "tune/search_space.hpp"
#include "tune/search_strategy.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kb {

// One problem's measured configurations.
struct MeasuredSpace {
  std::string problem;  // "transpose/fast float32 8192x8192"
  std::string where;    // "run default, NVIDIA H100 80GB HBM3 (device 0)"
  SearchSpace space;
  std::vector<Cost> costs;  // per point: the median of its ok rows' medians; nothing without one
  double optimum = 0;       // the least cost
};

// The rows grouped by problem (kTuningProblem: one space per run, GPU and device, plugin and
// version, data type, operation, shape, seed and cache), over the configurations (block, params)
// its rows hold, given to `each` one problem at a time in the natural order of their keys (a long
// history holds millions). Only spaces of at least two configurations, one of them ok, are worth
// a search: the others are left out. `searching`, when given, is told before each problem worth a
// search is built (its index and their number): a command's progress line.
void for_each_measured_space(
    const std::vector<ResultRecord>& rows, const std::function<void(const MeasuredSpace&)>& each,
    const std::function<void(std::size_t problem, std::size_t problems)>& searching = {});

struct ReplayOutcome {
  std::size_t searches = 0;     // one per seed
  std::size_t reached = 0;      // searches that came within the tolerance of the optimum
  double mean_evaluations = 0;  // evaluations until then, averaged over the searches that did
};

// `seeds` searches of `strategy` (seeds first_seed, first_seed + 1, ...) within `limits`: how many
// evaluations each took to find a configuration within (1 + tolerance) x the optimum.
ReplayOutcome replay(const MeasuredSpace& measured, const SearchStrategy& strategy,
                     SearchLimits limits, std::uint64_t first_seed, std::size_t seeds,
                     double tolerance);

}  // namespace kb
