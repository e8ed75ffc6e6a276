// Command-line and config-file options (Boost.Program_options) shared by the commands.
#pragma once

#include "plan.hpp"
#include "case_runner.hpp"

#include <boost/program_options.hpp>

#include <string>
#include <vector>

namespace kb {

namespace po = boost::program_options;

struct RunOptions {
  SweepRequest sweep;
  std::vector<std::string> plugin_dirs;
  std::string output = "results/results.csv";
  std::string run_id;
  bool resume = false;
  TimingOptions timing;
  double case_timeout_seconds = 300;
  std::string devices = "0";
  bool split = false;        // share the cases out over the devices instead of running each on all
  std::string shard;         // "i/N": run only the i-th of N deterministic slices of the plan
  std::string samples_out;   // CSV file receiving every sample
};

po::options_description plugin_path_options(std::vector<std::string>& dirs);
// The options the parent passes on to its workers.
po::options_description timing_options(TimingOptions& timing, bool& hide_latency_off);

// Parses `kbench run` arguments (after the command word), reading --config FILE too; throws
// InputError on bad input. Returns false when --help was printed.
bool parse_run_options(const std::vector<std::string>& args, RunOptions& options);

// Parses argv with `description` and, when present, the config file named by --config.
po::variables_map parse_with_config(const std::vector<std::string>& args,
                                    const po::options_description& description,
                                    const char* command);

}  // namespace kb
