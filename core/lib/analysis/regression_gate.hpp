// `kbench compare`'s verdicts: every case of a candidate (tonight's run) against a baseline (last
// night's), faster, slower, same or unsure, and whether the candidate fails the gate a nightly job
// stops on. Pure functions over rows, so each rule is tested without files or processes.
//
// The test holds across runs, not within one: a row's `noise` bounds its median among one worker's
// samples, which understates what changes from run to run (most cases of two identical runs
// differ by more than it: results/notes/measurement.md). With --repetitions, each side of a
// case is the repetitions' medians, and a two-sided Mann-Whitney U test over them (as Google
// Benchmark's compare.py) says whether the two runs differ at all; a minimum effect says whether
// the difference matters, so that identical runs read "same" and not "slower" at the test's alpha.
#pragma once

#include "store/result_record.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kb {

// faster/slower/same/unsure: both sides timed. broken: ok in the baseline, another status now.
// fixed: the other way. untimed: neither side ok (unsupported both times, say). missing: in the
// baseline only. added: in the candidate only.
enum class Verdict { slower, faster, same, unsure, broken, fixed, untimed, missing, added };
const char* verdict_name(Verdict verdict);

// One run's side of a case cannot be tested by rank with a single repetition: its rows' own noise
// stands in for the run-to-run noise, times this margin, since the in-run interval is known to be
// too narrow. Between the minimum effect and that bound the verdict is "unsure".
inline constexpr double kSingleRepetitionMargin = 3;

struct GateRequest {
  double alpha = 0.05;       // significance of the rank test
  double min_effect = 0.01;  // a smaller relative difference in time is "same"
  // A slower case fails the gate when its effect exceeds this; unset: min_effect, so that every
  // "slower" fails.
  std::optional<double> fail_slower;
};

// One case in one side's rows (all its repetitions, runs and cards of one GPU model).
struct CaseSide {
  bool timed = false;            // every row passed, each with a median
  std::string status;            // as printed: "ok" when timed, else the latest failure's status
                                 // ("no median" for an ok row without one)
  std::string message;           // that failure's message
  std::vector<double> medians;   // median_us of each ok row: one per repetition and card
  double median = 0;             // the median of those medians
  // Relative: with several medians half their range over `median`, with one the row's own
  // `noise` (infinity when the row could not bound it).
  double noise = 0;
  std::size_t rows = 0;
};

struct CaseVerdict {
  std::vector<std::string> key;  // one value per Gate::key_columns
  Verdict verdict = Verdict::same;
  bool fails = false;            // this case makes the gate fail
  std::string reason;            // one line: why it fails, or why unsure
  std::optional<CaseSide> baseline, candidate;
  std::optional<double> effect;   // candidate median / baseline median - 1: > 0 is slower
  std::optional<double> p_value;  // the rank test, where both sides have two medians or more
};

struct Gate {
  GateRequest request;
  std::string baseline_label, candidate_label;  // what was compared: run ids or files
  std::vector<std::string> key_columns;  // kComparedCase: gpu, family, plugin, dtype, op, ...
  std::vector<CaseVerdict> cases;        // in natural order of their keys
  bool passed() const;
};

// The two sides' rows are matched by case; a case's GPU is its model, so the cards of one model
// pool (nightly runs land on whichever node is free). Throws InputError when the baseline is empty.
Gate gate(const std::vector<ResultRecord>& baseline, const std::vector<ResultRecord>& candidate,
          const GateRequest& request);

// Drops the key columns (gpu, op, cache) that hold one value in every case, for printing.
Gate without_constant_keys(Gate gate);

}  // namespace kb
