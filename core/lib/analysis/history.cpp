#include "analysis/history.hpp"

#include "util/input_error.hpp"
#include "util/natural_order.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>

namespace kb {
namespace {

// Seconds since the epoch of "2026-11-21T23:59:01Z"; nothing for another text.
std::optional<std::time_t> parse_utc(const std::string& text) {
  std::tm utc{};
  const char* end = strptime(text.c_str(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return timegm(&utc);
}

struct RunRows {
  HistoryRun run;
  std::vector<std::uint32_t> rows;  // positions in the rows given
};

// The runs in the order they started (a run without a readable timestamp first), ties by id.
std::vector<RunRows> runs_of(const std::vector<ResultRecord>& rows) {
  std::map<std::string, RunRows> by_id;
  std::unordered_map<std::uint32_t, RunRows*> by_handle;
  std::unordered_map<std::uint32_t, std::optional<std::time_t>> stamps;  // per timestamp text
  for (std::uint32_t i = 0; i < rows.size(); ++i) {
    const ResultRecord& row = rows[i];
    RunRows*& known = by_handle[row.run_id.id()];
    if (known == nullptr) known = &by_id[row.run_id];
    RunRows& run = *known;
    run.run.run_id = row.run_id;
    const auto [at, added] = stamps.try_emplace(row.timestamp_utc.id());
    if (added) at->second = parse_utc(row.timestamp_utc);
    const std::optional<std::time_t>& stamp = at->second;
    if (stamp && (run.rows.empty() || run.run.started == 0 || *stamp < run.run.started)) {
      run.run.started = *stamp;
      run.run.started_text = row.timestamp_utc;
    }
    run.rows.push_back(i);
  }
  std::vector<RunRows> runs;
  for (auto& [id, run] : by_id) runs.push_back(std::move(run));
  std::stable_sort(runs.begin(), runs.end(), [](const RunRows& a, const RunRows& b) {
    if (a.run.started != b.run.started) return a.run.started < b.run.started;
    return natural_less(a.run.run_id, b.run.run_id);
  });
  return runs;
}

// A run's rows, copied: the gate between two runs holds those two alone.
std::vector<ResultRecord> rows_of(const std::vector<ResultRecord>& rows, const RunRows& run) {
  std::vector<ResultRecord> copy;
  copy.reserve(run.rows.size());
  for (const std::uint32_t i : run.rows) copy.push_back(rows[i]);
  return copy;
}

bool timed(const std::optional<CaseSide>& side) { return side && side->timed; }

}  // namespace

History history(const std::vector<ResultRecord>& rows, const GateRequest& request,
                const std::function<void(std::size_t run, std::size_t runs)>& gating) {
  std::vector<RunRows> runs = runs_of(rows);
  History result;
  for (const auto& run : runs) result.runs.push_back(run.run);
  std::map<std::vector<std::string>, CaseHistory, NaturalKeyLess> cases;
  const auto case_at = [&](const std::vector<std::string>& key) -> CaseHistory& {
    CaseHistory& c = cases[key];
    if (c.key.empty()) {
      c.key = key;
      c.median.resize(runs.size());
      c.slower.resize(runs.size());
    }
    return c;
  };
  // A regression's figures, kept as each gate goes: the gates themselves are let go of (a year of
  // nightlies holds tens of thousands).
  struct Found {
    std::size_t run;
    const CaseHistory* found_case;  // a node of `cases`, which never moves
    double before_us, after_us, effect;
    std::optional<double> p_value;
  };
  std::vector<Found> found;
  // Each run against the one before; a single run against itself, for its medians.
  for (std::size_t k = runs.size() > 1 ? 1 : 0; k < runs.size(); ++k) {
    if (gating) gating(k, runs.size());
    const Gate g = gate(rows_of(rows, runs[k == 0 ? 0 : k - 1]), rows_of(rows, runs[k]), request);
    result.key_columns = g.key_columns;
    for (const auto& c : g.cases) {
      if (k <= 1 && timed(c.baseline)) case_at(c.key).median[0] = c.baseline->median;
      if (timed(c.candidate)) case_at(c.key).median[k] = c.candidate->median;
      if (k > 0 && c.fails && c.verdict == Verdict::slower) {
        CaseHistory& slower = case_at(c.key);
        slower.slower[k] = true;
        found.push_back(
            {k, &slower, c.baseline->median, c.candidate->median, *c.effect, c.p_value});
      }
    }
  }
  std::unordered_map<const CaseHistory*, std::size_t> index_of;
  for (auto& [key, c] : cases) {
    for (std::size_t k = 0; k < runs.size(); ++k) result.runs[k].cases += c.median[k].has_value();
    index_of[&c] = result.cases.size();
    result.cases.push_back(std::move(c));
  }
  if (std::all_of(result.runs.begin(), result.runs.end(),
                  [](const HistoryRun& r) { return r.cases == 0; })) {
    throw InputError("no ok row with a median time: no history to draw");
  }
  for (const auto& f : found) {
    result.regressions.push_back(
        {f.run, index_of.at(f.found_case), f.before_us, f.after_us, f.effect, f.p_value});
  }
  return result;
}

}  // namespace kb
