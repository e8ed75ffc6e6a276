#include "tune/search_replay.hpp"

#include "store/result_selection.hpp"
#include "tune/best_configs.hpp"
#include "util/natural_order.hpp"

#include <algorithm>
#include <map>

namespace kb {
namespace {

// The cells that make rows one problem; the configuration's cells (block, params) and the
// repetition are what vary within it.
constexpr const char* kProblemColumns[] = {"run_id",         "gpu_name", "device", "plugin",
                                           "plugin_version", "dtype",    "op",     "shape",
                                           "seed",           "cache"};

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Configuration configuration_of(const ResultRow& row) {
  return {row.get("block"), row.get("params")};
}

}  // namespace

std::vector<MeasuredSpace> measured_spaces(const std::vector<ResultRow>& rows) {
  // problem key -> configuration -> the medians of its ok rows (empty: measured, never ok)
  std::map<std::vector<std::string>, std::map<Configuration, std::vector<double>>, NaturalKeyLess>
      problems;
  for (const auto& row : rows) {
    std::vector<std::string> key;
    for (const char* column : kProblemColumns) key.push_back(row.get(column));
    auto& medians = problems[key][configuration_of(row)];
    const auto median = cell_number(row.get("median_us"));
    if (row.get("status") == "ok" && median && *median > 0) medians.push_back(*median);
  }
  std::vector<MeasuredSpace> spaces;
  for (const auto& [key, configurations] : problems) {
    std::vector<Configuration> listed;
    for (const auto& [c, medians] : configurations) listed.push_back(c);
    MeasuredSpace measured{"", "", SearchSpace(listed), {}, 0};
    const auto& space = measured.space;
    bool any_ok = false;
    for (std::size_t p = 0; p < space.size(); ++p) {
      const auto& medians = configurations.at(space.configuration(p));
      measured.costs.push_back(medians.empty() ? Cost{} : Cost{median_of(medians)});
      if (medians.empty()) continue;
      measured.optimum =
          any_ok ? std::min(measured.optimum, *measured.costs.back()) : *measured.costs.back();
      any_ok = true;
    }
    if (space.size() < 2 || !any_ok) continue;
    // key: run, gpu, device, plugin, version, dtype, op, shape, seed, cache
    measured.problem = BestKey{key[1], "", key[3], key[4], key[5], key[6], key[7]}.problem();
    measured.where = "run " + key[0] + ", " + (key[1].empty() ? "host" : key[1]) +
                     (key[2] == "host" || key[2].empty() ? "" : " (device " + key[2] + ")");
    spaces.push_back(std::move(measured));
  }
  return spaces;
}

ReplayOutcome replay(const MeasuredSpace& measured, const SearchStrategy& strategy,
                     SearchLimits limits, std::uint64_t first_seed, std::size_t seeds,
                     double tolerance) {
  ReplayOutcome outcome;
  double evaluations = 0;
  for (std::size_t i = 0; i < seeds; ++i) {
    Search search(
        measured.space, [&](std::size_t point) { return measured.costs[point]; }, limits);
    // The generator of a real tune of the problem with that seed: the same costs, the same path.
    SearchRng rng = search_rng(first_seed + i, measured.problem);
    strategy.run(search, rng);
    ++outcome.searches;
    const auto& trace = search.trace();
    const auto good = std::find_if(trace.begin(), trace.end(), [&](const Search::Evaluation& e) {
      return e.cost && *e.cost <= (1 + tolerance) * measured.optimum;
    });
    if (good == trace.end()) continue;
    ++outcome.reached;
    evaluations += static_cast<double>(good - trace.begin() + 1);
  }
  if (outcome.reached > 0) outcome.mean_evaluations = evaluations / outcome.reached;
  return outcome;
}

}  // namespace kb
