#include "tune/search_replay.hpp"

#include "store/case_columns.hpp"
#include "tune/best_configs.hpp"
#include "util/natural_order.hpp"

#include <algorithm>
#include <map>

namespace kb {
namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Configuration configuration_of(const ResultRecord& row) { return {row.block, row.params}; }

}  // namespace

std::vector<MeasuredSpace> measured_spaces(const std::vector<ResultRecord>& rows) {
  // problem key -> configuration -> the medians of its ok rows (empty: measured, never ok)
  std::map<std::vector<std::string>, std::map<Configuration, std::vector<double>>, NaturalKeyLess>
      problems;
  std::map<std::vector<std::string>, const ResultRecord*> first_of;  // a row of each problem
  for (const auto& row : rows) {
    const std::vector<std::string> key = key_cells(row, kTuningProblem);
    first_of.emplace(key, &row);
    auto& medians = problems[key][configuration_of(row)];
    if (row.ok() && row.median_us && *row.median_us > 0) medians.push_back(*row.median_us);
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
    const ResultRecord& row = *first_of.at(key);
    measured.problem = best_key(row).problem();
    measured.where = "run " + row.run_id + ", " + (row.gpu_name.empty() ? "host" : row.gpu_name) +
                     (row.device == "host" || row.device.empty() ? "" : " (device " + row.device + ")");
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
