// `kbench compare`: with --by, the medians of the same cases side by side across GPUs, runs or
// plugins; without it, a verdict for every case of a candidate run against a baseline run, and an
// exit code a nightly job can stop on.
#include "analysis/comparison.hpp"
#include "analysis/regression_gate.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "plan/plan.hpp"
#include "report/comparison_format.hpp"
#include "report/verdict_format.hpp"
#include "store/result_selection.hpp"
#include "util/input_error.hpp"
#include "util/output_file.hpp"
#include "util/terminal_text.hpp"

#include <fstream>
#include <iostream>
#include <optional>
#include <set>

namespace kb {
namespace {

struct VerdictOptions {
  std::string baseline_run, run, junit;
  GateOptions gate;
  // Whether any of them was given: they mean nothing to a pivot.
  bool given() const {
    return !baseline_run.empty() || !run.empty() || !junit.empty() || gate.given();
  }
};

po::options_description verdict_options(VerdictOptions& o) {
  po::options_description d("Verdicts (without --by)");
  d.add_options()
      ("baseline-run", po::value(&o.baseline_run),
       "the run the others are held against (without it: two CSV files, the baseline first)")
      ("run", po::value(&o.run), "the candidate run (default: every run but the baseline)");
  add_gate_options(d, o.gate);
  d.add_options()
      ("junit", po::value(&o.junit), "also write the verdicts as JUnit XML to this file");
  return d;
}

std::string list_runs(const std::set<std::string>& runs) {
  std::string text;
  for (const auto& run : runs) text += (text.empty() ? "" : ", ") + run;
  return text;
}

struct Sides {
  std::vector<ResultRecord> baseline, candidate;
  std::string baseline_label, candidate_label;
};

// --baseline-run: that run's rows against --run's, or every other run's. Otherwise two files.
// A run of hidden shapes (new each night) takes part only where --baseline-run or --run names it.
Sides sides_of(const RowSelection& selection, const VerdictOptions& o) {
  if (selection.files.empty()) throw InputError("name the results CSV files to compare");
  Sides sides;
  // The gate between two runs reads the rows of those runs alone.
  RowFilter filter{selection.families, selection.plugin_globs, {}};
  if (!o.baseline_run.empty() && !o.run.empty()) filter.runs = {o.baseline_run, o.run};
  FilterTally tally;
  std::vector<std::vector<ResultRecord>> files;
  for (std::size_t i = 0; i < selection.files.size(); ++i) {
    RowFilter of_file = filter;
    if (o.baseline_run.empty() && i == 1 && !o.run.empty()) of_file.runs = {o.run};
    files.push_back(read_file_rows(selection.files[i], of_file, tally));
  }
  refuse_unmatched(filter, tally);  // an unknown filter is an error
  const auto hidden_unnamed = [&](const ResultRecord& row) {
    return is_hidden_run_id(row.run_id) && row.run_id != o.baseline_run && row.run_id != o.run;
  };
  std::set<std::string> candidate_runs;
  if (!o.baseline_run.empty()) {
    for (const auto& wanted : {o.baseline_run, o.run}) {
      if (!wanted.empty() && !tally.runs.count(wanted)) {
        throw InputError("no run '" + wanted + "' in the files; their runs: " +
                         list_runs(tally.runs));
      }
    }
    for (auto& file : files) {
      for (auto& row : file) {
        if (hidden_unnamed(row)) continue;
        if (row.run_id == o.baseline_run) {
          sides.baseline.push_back(std::move(row));
        } else if (o.run.empty() || row.run_id == o.run) {
          candidate_runs.insert(row.run_id);
          sides.candidate.push_back(std::move(row));
        }
      }
    }
    sides.baseline_label = "run " + o.baseline_run;
  } else {
    if (files.size() != 2) {
      throw InputError("verdicts need --baseline-run ID, or two CSV files (the baseline first); "
                       "--by gpu|device|run|plugin pivots instead");
    }
    for (auto& row : files[0]) {
      if (!hidden_unnamed(row)) sides.baseline.push_back(std::move(row));
    }
    for (auto& row : files[1]) {
      if (hidden_unnamed(row)) continue;
      candidate_runs.insert(row.run_id);
      sides.candidate.push_back(std::move(row));
    }
    sides.baseline_label = selection.files[0];
  }
  if (sides.baseline.empty()) throw InputError("the baseline holds no row the filters keep");
  if (candidate_runs.empty()) throw InputError("no candidate rows: the files hold no other run");
  sides.candidate_label =
      (candidate_runs.size() == 1 ? "run " : "runs ") + list_runs(candidate_runs);
  if (o.baseline_run.empty()) sides.candidate_label += " of " + selection.files[1];
  return sides;
}

int verdicts(const RowSelection& selection, const VerdictOptions& o, const std::string& format) {
  if (format != "markdown" && format != "json" && format != "benchmark-action") {
    throw InputError("unknown --format '" + format +
                     "' for verdicts (markdown, json or benchmark-action)");
  }
  const GateRequest request = o.gate.request();
  // Created at once: a path that cannot be a file is refused before any work.
  if (!o.junit.empty()) {
    refuse_writing_a_file_read("--junit", o.junit, selection);
    write_output_file(o.junit, "", "JUnit file");
  }
  const Sides sides = sides_of(selection, o);
  Gate result = gate(sides.baseline, sides.candidate, request);
  result.baseline_label = sides.baseline_label;
  result.candidate_label = sides.candidate_label;
  // Markdown for a terminal: whatever a cell held, shown as text (JSON escapes its own).
  std::cout << (format == "json"               ? verdicts_json(result)
                : format == "benchmark-action" ? verdicts_benchmark_action(result)
                                               : terminal_text(verdicts_markdown(result), true));
  if (!o.junit.empty()) write_output_file(o.junit, verdicts_junit(result), "JUnit file");
  return result.passed() ? 0 : 1;
}

}  // namespace

int compare_command(const std::vector<std::string>& args) {
  RowSelection selection;
  std::string by, metric = "time", format = "markdown";
  CompareRequest request;
  VerdictOptions verdict;
  po::options_description description("kbench compare");
  description.add_options()
      ("help,h", "show this help")
      ("by", po::value(&by),
       "pivot: what the columns are: gpu (a model, its cards pooled) | device | run | plugin "
       "(then each family is its own table); without --by, verdicts")
      ("baseline", po::value(&request.baseline),
       "the column the speed-ups are against (default: the first in sorted order)")
      ("metric", po::value(&metric)->default_value(metric),
       "time | gbps | gflops | energy (J per launch) | efficiency (GB/J or GFLOP/J) | a counter "
       "of kbench run --metrics, e.g. dram_throughput, shared_load_bank_conflicts")
      ("format", po::value(&format)->default_value(format),
       "markdown | csv (--by) | json | benchmark-action (verdicts)")
      ("ladder", po::bool_switch(&request.ladder),
       "each column's speed-up over the column before it (columns in --plugin order)")
      ("config", po::value<std::string>(),
       "take --family and --plugin (in order) from a kbench run config, e.g. a preset");
  description.add(verdict_options(verdict));
  description.add(row_selection_options(selection));
  if (!parse_results_command(
          args, description, "compare",
          "Usage: kbench compare CSV... --by gpu|device|run|plugin [options]\n"
          "       kbench compare CSV... --baseline-run ID [--run ID] [--fail-slower PCT] "
          "[options]\n"
          "       kbench compare BASELINE.csv CANDIDATE.csv [--fail-slower PCT] [options]")) {
    return 0;
  }
  if (by.empty()) {
    if (!request.baseline.empty() || request.ladder || metric != "time") {
      throw InputError("--baseline, --ladder and --metric are for --by; verdicts compare times");
    }
    return verdicts(selection, verdict, format);
  }
  if (verdict.given()) {
    throw InputError("--baseline-run, --run, --fail-slower, --min-effect, --alpha and --junit are "
                     "for verdicts, without --by");
  }
  request.column_order = selection.plugin_globs;
  request.by = parse_compare_by(by);
  request.metric = parse_metric(metric);
  if (format != "markdown" && format != "csv") {
    throw InputError("unknown --format '" + format + "' (markdown or csv)");
  }
  const auto rows =
      read_selected_rows(selection.files, {selection.families, selection.plugin_globs, {}});
  const Comparison comparison = compare(rows, request);
  std::cout << (format == "csv" ? comparison_csv(comparison)
                                : terminal_text(comparison_markdown(comparison), true));
  // The markdown says so beside its tables; a CSV has no place for it.
  if (format == "csv") {
    for (const auto& difference : comparison.built_differently) {
      std::cerr << "kbench: warning: built differently: "
                << terminal_text(code_difference_text(difference), false) << "\n";
    }
  }
  return 0;
}

}  // namespace kb
