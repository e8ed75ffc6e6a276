#include "tune/search_replay.hpp"

#include "store/case_columns.hpp"
#include "tune/best_configs.hpp"
#include "util/natural_order.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace kb {
namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Configuration configuration_of(const ResultRecord& row) { return {row.block, row.params}; }

}  // namespace

void for_each_measured_space(
    const std::vector<ResultRecord>& rows, const std::function<void(const MeasuredSpace&)>& each,
    const std::function<void(std::size_t problem, std::size_t problems)>& searching) {
  // The rows in the order of their key's handles, then of their position: each problem's rows lie
  // together, in file order. A year of nightlies holds millions of problems (most of one
  // configuration: a vendor library's), and their keys as text would be gigabytes.
  const std::vector<CaseColumn> columns = kTuningProblem.list();
  const auto key_order = [&](std::uint32_t a, std::uint32_t b) {
    for (const CaseColumn column : columns) {
      const std::uint32_t x = rows[a].cell(column).id(), y = rows[b].cell(column).id();
      if (x != y) return x < y ? -1 : 1;
    }
    return 0;
  };
  std::vector<std::uint32_t> by_key(rows.size());
  std::iota(by_key.begin(), by_key.end(), 0);
  std::sort(by_key.begin(), by_key.end(), [&](std::uint32_t a, std::uint32_t b) {
    const int order = key_order(a, b);
    return order != 0 ? order < 0 : a < b;
  });
  // The problems worth a search: two configurations or more.
  struct Problem {
    std::uint32_t begin, end;  // in by_key
  };
  std::vector<Problem> problems;
  for (std::uint32_t at = 0; at < by_key.size();) {
    std::uint32_t end = at + 1;
    bool several = false;
    const ResultRecord& first = rows[by_key[at]];
    for (; end < by_key.size() && key_order(by_key[at], by_key[end]) == 0; ++end) {
      const ResultRecord& row = rows[by_key[end]];
      several = several || row.block != first.block || row.params != first.params;
    }
    if (several) problems.push_back({at, end});
    at = end;
  }
  // In the natural order of their keys' texts (8192 after 1024), as a table reads.
  std::stable_sort(problems.begin(), problems.end(), [&](const Problem& a, const Problem& b) {
    const ResultRecord& x = rows[by_key[a.begin]];
    const ResultRecord& y = rows[by_key[b.begin]];
    for (const CaseColumn column : columns) {
      const std::string &s = x.cell(column), &t = y.cell(column);
      if (natural_less(s, t)) return true;
      if (natural_less(t, s)) return false;
    }
    return false;
  });
  for (std::size_t k = 0; k < problems.size(); ++k) {
    if (searching) searching(k, problems.size());
    const Problem& problem = problems[k];
    const auto begin = by_key.begin() + problem.begin, end = by_key.begin() + problem.end;
    // configuration -> the medians of its ok rows (empty: measured, never ok)
    std::map<Configuration, std::vector<double>> configurations;
    for (auto at = begin; at != end; ++at) {
      const ResultRecord& row = rows[*at];
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
    const ResultRecord& row = rows[*begin];
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
