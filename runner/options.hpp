// Command-line and config-file options (Boost.Program_options) shared by the commands.
#pragma once

#include "analysis/regression_gate.hpp"
#include "measure/timing_options.hpp"
#include "plan/plan.hpp"

#include <boost/program_options.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kb {

namespace po = boost::program_options;

// Every command's arguments as parsed options. Option names are matched whole: Boost's default
// style takes an unambiguous prefix for the option it starts (`list --plugin X` would become
// `--plugins X`, a folder), so a name a command does not know is refused by name instead.
po::parsed_options parse_command_line(
    const std::vector<std::string>& args, const po::options_description& description,
    const po::positional_options_description& positional = po::positional_options_description());

// --repetitions: a nightly run takes 5; run-to-run noise studies a few hundred.
inline constexpr int kMaxRepetitions = 1000;
// The most cases one run plans, repetitions included: each is held in memory and reported.
inline constexpr std::size_t kMaxPlannedCases = 1'000'000;

struct RunOptions {
  SweepRequest sweep;
  std::vector<std::string> plugin_dirs;
  // Kernel files (--kernel: .cu, .ptx, .cubin, .fatbin with a manifest), run as strategies of
  // their families (docs/kernel-files.md).
  std::vector<std::string> kernel_files;
  std::string output = "results/results.csv";
  std::string run_id;
  bool resume = false;
  TimingOptions timing;
  double case_timeout_seconds = 300;
  std::string devices = "0";
  bool split = false;        // share the cases out over the devices instead of running each on all
  // Lanes that share the host plugins' cases out, each on cores of its own; 0 (`auto`): one per
  // host plugin, as the cores allow.
  int host_lanes = 1;
  std::string shard;         // "i/N": run only the i-th of N deterministic slices of the plan
  int repetitions = 1;       // passes over the plan, each case in a fresh worker each time
  bool no_hidden_shapes = false;  // with repetitions: no shape drawn near each asked one
  std::string samples_out;   // CSV file receiving every sample
  std::string best_file;     // run each problem at its configuration in this file (kbench tune's)
};

// What `kbench tune` searches and how (docs/tuning.md).
struct TuneOptions {
  RunOptions run;  // the plugins, problems, results file and timing, as `run` takes them
  std::vector<std::string> strategies;  // one to tune with; with --simulate, those to compare
  std::size_t budget = 0;               // evaluations per problem; 0: no limit
  double seconds = 0;                   // seconds per problem; 0: no limit
  std::uint64_t seed = 1;               // the strategy's random numbers
  std::string best_file = "results/best.json";  // the best configurations are merged into it
  std::string simulate;                 // a results CSV to replay the strategies against
  std::size_t seeds = 20;               // --simulate: searches per strategy and problem
  double within = 0.05;                 // --simulate: how near the optimum counts as found
};

po::options_description plugin_path_options(std::vector<std::string>& dirs);
// --kernel FILE (repeatable).
po::options_description kernel_file_options(std::vector<std::string>& files);
// --case-timeout: seconds, in (0, one week].
po::options_description case_timeout_option(double& seconds);
// The options the parent passes on to its workers.
po::options_description timing_options(TimingOptions& timing, bool& hide_latency_off);

// Parses `kbench run` arguments (after the command word), reading --config FILE too; throws
// InputError on bad input. Returns false when --help was printed.
bool parse_run_options(const std::vector<std::string>& args, RunOptions& options);
// The same for `kbench tune`.
bool parse_tune_options(const std::vector<std::string>& args, TuneOptions& options);

// The options of the commands that read results back (compare, report): the CSV files, also
// given as positional arguments, and the --family / --plugin filters.
struct RowSelection {
  std::vector<std::string> files, families, plugin_globs;
};
po::options_description row_selection_options(RowSelection& selection);
// Parses `args` with `description` (which holds row_selection_options); false when --help was
// asked for, after printing `usage` and the options.
bool parse_results_command(const std::vector<std::string>& args,
                           const po::options_description& description, const char* command,
                           const char* usage);
// Refuses `output` (the file of `option`) when it is one of the CSV files the command reads:
// opening it to write would truncate the input.
void refuse_writing_a_file_read(const std::string& option, const std::string& output,
                                const RowSelection& selection);

// The gate's rule (docs/nightly.md), as `compare` takes it for its verdicts and `report --history`
// for the regressions it marks: one set of options, so that both mark the same cases.
struct GateOptions {
  double min_effect_percent = 1, alpha = 0.05;
  std::optional<double> fail_slower_percent;
  // Whether any differs from its default (a default given explicitly passes unseen).
  bool given() const;
  // The request; InputError for an alpha outside (0, 1) or a negative percentage.
  GateRequest request() const;
};
// Adds --fail-slower, --min-effect and --alpha to `description`.
void add_gate_options(po::options_description& description, GateOptions& options);

// The items of repeatable, comma-separated options (--family a,b --family c), each once; an empty
// or repeated item is an InputError.
std::vector<std::string> unique_items(const std::vector<std::string>& lists, const char* what);

// A number as an option value that parses back to the same double (std::to_string rounds 1e-7
// to 0.000000, which a worker would then refuse).
std::string option_number(double value);

// Parses argv with `description` and, when present, the config file named by --config.
po::variables_map parse_with_config(const std::vector<std::string>& args,
                                    const po::options_description& description,
                                    const char* command);

}  // namespace kb
