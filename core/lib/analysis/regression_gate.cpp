#include "analysis/regression_gate.hpp"

#include "analysis/card_pool.hpp"
#include "analysis/gpu_model.hpp"
#include "analysis/metric.hpp"
#include "analysis/rank_test.hpp"
#include "store/key_columns.hpp"
#include "store/case_columns.hpp"
#include "util/input_error.hpp"
#include "util/natural_order.hpp"
#include "util/number_text.hpp"
#include "util/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace kb {
namespace {

using Key = std::vector<std::string>;

// The indices of each case's rows on one side.
using RowsOfCase = std::map<Key, std::vector<std::size_t>, NaturalKeyLess>;

RowsOfCase rows_of_cases(const std::vector<ResultRecord>& rows,
                         const std::vector<Text>& gpus, std::size_t first,
                         std::size_t count) {
  RowsOfCase cases;
  for (std::size_t i = first; i < first + count; ++i) {
    cases[key_cells(rows[i], kComparedCase, gpus[i])].push_back(i);
  }
  return cases;
}

CaseSide side_of(const std::vector<ResultRecord>& rows, const std::vector<std::size_t>& indices) {
  CaseSide side;
  side.rows = indices.size();
  std::optional<std::size_t> latest_failure;
  double row_noise = 0;
  for (std::size_t i : indices) {
    const ResultRecord& row = rows[i];
    // An ok row whose median is no measurement (nan, 0, -1, inf) counts as one without a median.
    const auto median = metric_value(row, Metric::time);
    if (row.ok() && median) {
      side.medians.push_back(*median);
      row_noise = row.noise.value_or(std::numeric_limits<double>::infinity());
    } else if (!latest_failure || is_later(rows, i, *latest_failure)) {
      latest_failure = i;
    }
  }
  if (latest_failure) {
    const ResultRecord& failure = rows[*latest_failure];
    side.status = failure.ok() ? "no median" : failure.status_text();
    side.message = failure.message;
    return side;
  }
  side.timed = true;
  side.status = status_name(CaseStatus::ok);
  side.median = summarize(side.medians).median;
  if (side.medians.size() == 1) {
    side.noise = row_noise;
  } else {
    const auto [low, high] = std::minmax_element(side.medians.begin(), side.medians.end());
    side.noise = (*high - *low) / 2 / side.median;
  }
  return side;
}


// Both sides timed: faster, slower, same or unsure, and why where it is not plain.
void judge_timed(CaseVerdict& v, const GateRequest& request) {
  const CaseSide& base = *v.baseline;
  const CaseSide& cand = *v.candidate;
  const double effect = cand.median / base.median - 1;
  v.effect = effect;
  const Verdict direction = effect > 0 ? Verdict::slower : Verdict::faster;
  if (base.medians.size() >= 2 && cand.medians.size() >= 2) {
    const RankTest test = mann_whitney_u(base.medians, cand.medians);
    v.p_value = test.p_value;
    if (std::abs(effect) < request.min_effect) {
      v.verdict = Verdict::same;
    } else if (test.p_value < request.alpha) {
      v.verdict = direction;
    } else {
      v.verdict = Verdict::unsure;
      v.reason = "not significant at " + significant_text(request.alpha);
    }
    return;
  }
  const double bound = kSingleRepetitionMargin * (base.noise + cand.noise);
  const std::string counts =
      std::to_string(base.medians.size()) + " vs " + std::to_string(cand.medians.size());
  if (std::abs(effect) < request.min_effect) {
    v.verdict = Verdict::same;
  } else if (std::abs(effect) > bound) {
    v.verdict = direction;
  } else {
    v.verdict = Verdict::unsure;
    v.reason = counts + " repetitions: within " +
               std::to_string(static_cast<int>(kSingleRepetitionMargin)) +
               "x the rows' own noise (" +
               (std::isfinite(bound) ? percent_text(bound) : std::string("unknown")) +
               "); run with --repetitions for a rank test";
  }
}

CaseVerdict judge(Key key, std::optional<CaseSide> base, std::optional<CaseSide> cand,
                  const GateRequest& request) {
  CaseVerdict v;
  v.key = std::move(key);
  v.baseline = std::move(base);
  v.candidate = std::move(cand);
  if (!v.candidate) {
    v.verdict = Verdict::missing;
    v.fails = true;
    v.reason = "in the baseline (" + v.baseline->status + "), not in the candidate";
    return v;
  }
  if (!v.baseline) {
    v.verdict = Verdict::added;
    return v;
  }
  const bool base_ok = v.baseline->timed, cand_ok = v.candidate->timed;
  if (base_ok && !cand_ok) {
    v.verdict = Verdict::broken;
    v.fails = true;
    v.reason = "was ok, now " + v.candidate->status +
               (v.candidate->message.empty() ? "" : ": " + v.candidate->message);
    return v;
  }
  if (!base_ok) {
    v.verdict = cand_ok ? Verdict::fixed : Verdict::untimed;
    v.reason = v.baseline->status + " -> " + v.candidate->status;
    return v;
  }
  judge_timed(v, request);
  const double allowed = request.fail_slower.value_or(request.min_effect);
  if (v.verdict == Verdict::slower && *v.effect > allowed) {
    v.fails = true;
    v.reason =
        "slower by " + percent_text(*v.effect) + ", more than the " + percent_text(allowed) + " allowed";
  }
  return v;
}

}  // namespace

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::slower: return "slower";
    case Verdict::faster: return "faster";
    case Verdict::same: return "same";
    case Verdict::unsure: return "unsure";
    case Verdict::broken: return "broken";
    case Verdict::fixed: return "fixed";
    case Verdict::untimed: return "untimed";
    case Verdict::missing: return "missing";
    case Verdict::added: return "added";
  }
  return "?";
}

bool Gate::passed() const {
  return std::none_of(cases.begin(), cases.end(), [](const CaseVerdict& c) { return c.fails; });
}

Gate gate(const std::vector<ResultRecord>& baseline, const std::vector<ResultRecord>& candidate,
          const GateRequest& request) {
  if (baseline.empty()) throw InputError("the baseline holds no row");
  // One labelling over both sides, so that a model reads the same on each.
  std::vector<ResultRecord> all(baseline);
  all.insert(all.end(), candidate.begin(), candidate.end());
  const std::vector<Text> gpus = gpu_labels(all);
  const RowsOfCase base = rows_of_cases(all, gpus, 0, baseline.size());
  const RowsOfCase cand = rows_of_cases(all, gpus, baseline.size(), candidate.size());

  Gate result;
  result.request = request;
  result.key_columns = kComparedCase.names();
  std::map<Key, std::pair<std::optional<CaseSide>, std::optional<CaseSide>>, NaturalKeyLess> sides;
  for (const auto& [key, indices] : base) sides[key].first = side_of(all, indices);
  for (const auto& [key, indices] : cand) sides[key].second = side_of(all, indices);
  for (auto& [key, pair] : sides) {
    result.cases.push_back(judge(key, std::move(pair.first), std::move(pair.second), request));
  }
  return result;
}

Gate without_constant_keys(Gate gate) {
  drop_constant_keys(gate.key_columns, gate.cases);
  return gate;
}

}  // namespace kb
