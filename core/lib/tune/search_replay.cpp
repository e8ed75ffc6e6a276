#include "tune/search_replay.hpp"

#include "store/case_columns.hpp"
#include "tune/best_configs.hpp"
#include "util/natural_order.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

namespace kb {
namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Configuration configuration_of(const ResultRecord& row) { return {row.block, row.params}; }

struct HandlesHash {
  std::size_t operator()(const std::vector<std::uint32_t>& handles) const {
    std::size_t hash = handles.size();
    for (const std::uint32_t h : handles) hash = hash * 0x100000001B3ull ^ h;
    return hash;
  }
};

}  // namespace

void for_each_measured_space(const std::vector<ResultRecord>& rows,
                             const std::function<void(const MeasuredSpace&)>& each) {
  // The rows of each problem, found by the handles of its key's cells: a year of nightlies holds
  // millions of problems, and their keys as text would be gigabytes.
  const std::vector<CaseColumn> columns = kTuningProblem.list();
  std::vector<std::vector<std::uint32_t>> rows_of;  // per problem, in file order
  {
    std::unordered_map<std::vector<std::uint32_t>, std::uint32_t, HandlesHash> problem_of;
    std::vector<std::uint32_t> key(columns.size());
    for (std::uint32_t i = 0; i < rows.size(); ++i) {
      for (std::size_t c = 0; c < columns.size(); ++c) key[c] = rows[i].cell(columns[c]).id();
      const auto [at, added] =
          problem_of.try_emplace(key, static_cast<std::uint32_t>(rows_of.size()));
      if (added) rows_of.emplace_back();
      rows_of[at->second].push_back(i);
    }
  }
  // In the natural order of their keys, as a map of the keys' texts holds them: keys that order
  // alike ("1" and "01") are one problem.
  const auto compare = [&](std::uint32_t a, std::uint32_t b) {
    const ResultRecord& x = rows[rows_of[a].front()];
    const ResultRecord& y = rows[rows_of[b].front()];
    for (const CaseColumn column : columns) {
      const std::string &s = x.cell(column), &t = y.cell(column);
      if (natural_less(s, t)) return -1;
      if (natural_less(t, s)) return 1;
    }
    return 0;
  };
  std::vector<std::uint32_t> order(rows_of.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return compare(a, b) < 0; });
  for (std::size_t at = 0; at < order.size();) {
    std::size_t next = at + 1;
    while (next < order.size() && compare(order[at], order[next]) == 0) ++next;
    std::vector<std::uint32_t> positions = std::move(rows_of[order[at]]);
    for (std::size_t alike = at + 1; alike < next; ++alike) {
      positions.insert(positions.end(), rows_of[order[alike]].begin(), rows_of[order[alike]].end());
    }
    if (next > at + 1) std::sort(positions.begin(), positions.end());
    at = next;
    // configuration -> the medians of its ok rows (empty: measured, never ok)
    std::map<Configuration, std::vector<double>> configurations;
    for (const std::uint32_t i : positions) {
      const ResultRecord& row = rows[i];
      auto& medians = configurations[configuration_of(row)];
      if (row.ok() && row.median_us && *row.median_us > 0) medians.push_back(*row.median_us);
    }
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
    const ResultRecord& row = rows[positions.front()];
    measured.problem = best_key(row).problem();
    measured.where = "run " + row.run_id + ", " + (row.gpu_name.empty() ? "host" : row.gpu_name) +
                     (row.device == "host" || row.device.empty() ? "" : " (device " + row.device + ")");
    each(measured);
  }
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
