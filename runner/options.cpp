#include "options.hpp"

#include "input_error.hpp"

#include <fstream>
#include <iostream>

namespace kb {

po::options_description plugin_path_options(std::vector<std::string>& dirs) {
  po::options_description d("Plugin search");
  d.add_options()("plugins", po::value(&dirs)->composing(),
                  "also load plugins from this folder (repeatable)");
  return d;
}

po::options_description timing_options(TimingOptions& timing, bool& hide_latency_off) {
  StoppingRule& rule = timing.rule;
  po::options_description d("Timing");
  d.add_options()
      ("min-samples", po::value(&rule.min_samples)->default_value(rule.min_samples),
       "timed launches at least")
      ("min-time", po::value(&rule.min_seconds)->default_value(rule.min_seconds),
       "seconds of sampling at least")
      ("max-time", po::value(&rule.max_seconds)->default_value(rule.max_seconds),
       "seconds of sampling at most; a case not settled by then is marked settled=0")
      ("max-noise", po::value(&rule.max_noise)->default_value(rule.max_noise),
       "target relative half-width of the median's 95% confidence interval")
      ("no-latency-hiding", po::bool_switch(&hide_latency_off),
       "do not hold the stream with a blocking kernel while enqueueing a timed launch")
      ("cold", po::bool_switch(&timing.cold),
       "flush the L2 cache before every sample (outside the timed region)")
      ("profile", po::bool_switch(&timing.profile),
       "launch each case once, inside its NVTX range, without warm-up or sampling (for ncu --nvtx)")
      ("energy-window", po::value(&timing.energy_window_seconds)->default_value(0),
       "seconds of back-to-back launches over which each case's board energy is read through "
       "NVML (J per launch, W); 0: no energy (the counter moves every 100 ms: use 1 or more)");
  return d;
}

po::options_description row_selection_options(RowSelection& selection) {
  po::options_description d("Rows");
  d.add_options()
      ("family", po::value(&selection.families)->composing(), "only this family (repeatable)")
      ("plugin", po::value(&selection.plugin_globs)->composing(),
       "only plugins whose name matches this glob (repeatable)")
      ("csv", po::value(&selection.files)->composing(),
       "results CSV files (also given without --csv)");
  return d;
}

bool parse_results_command(const std::vector<std::string>& args,
                           const po::options_description& description, const char* command,
                           const char* usage) {
  po::positional_options_description positional;
  positional.add("csv", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(description).positional(positional).run(), vm);
    if (vm.count("config")) {
      // A `kbench run` config (a preset): its family and plugins, in order; the sweep's other
      // options mean nothing here and are skipped.
      const std::string file = vm["config"].as<std::string>();
      std::ifstream in(file);
      if (!in) throw InputError("cannot read config file '" + file + "'");
      po::store(po::parse_config_file(in, description, /*allow_unregistered=*/true), vm);
    }
    if (!vm.count("help")) po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string("kbench ") + command + ": " + e.what());
  }
  if (vm.count("help")) {
    std::cout << usage << "\n" << description;
    return false;
  }
  return true;
}

po::variables_map parse_with_config(const std::vector<std::string>& args,
                                    const po::options_description& description,
                                    const char* command) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(description).run(), vm);
    if (vm.count("config")) {
      const std::string file = vm["config"].as<std::string>();
      std::ifstream in(file);
      if (!in) throw InputError("cannot read config file '" + file + "'");
      try {
        // Values on the command line win over the file's: po::store keeps the first value.
        po::store(po::parse_config_file(in, description), vm);
      } catch (const po::error& e) {
        throw InputError("config file '" + file + "': " + e.what());
      }
    }
    if (!vm.count("help")) po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string("kbench ") + command + ": " + e.what());
  }
  return vm;
}

bool parse_run_options(const std::vector<std::string>& args, RunOptions& o) {
  bool latency_off = false;
  std::string seed_text;
  po::options_description sweep("Sweep");
  sweep.add_options()
      ("help,h", "show this help")
      ("config", po::value<std::string>(), "read these options from an INI-style file")
      ("family", po::value(&o.sweep.families)->composing(), "run only this family (repeatable)")
      ("plugin", po::value(&o.sweep.plugin_globs)->composing(),
       "run only plugins whose name matches this glob, e.g. 'transpose/shared*' (repeatable)")
      ("sizes", po::value(&o.sweep.sizes), "problem sizes, e.g. 1024,8192x4096,2^20,10^7+3")
      ("blocks", po::value(&o.sweep.blocks), "thread-block shapes, e.g. 32x8,16x16,256")
      ("dtypes", po::value(&o.sweep.dtypes), "data types: float32,float64,int32")
      ("ops", po::value(&o.sweep.ops), "operations where the family has several, e.g. sum,sumsq")
      ("devices", po::value(&o.devices)->default_value(o.devices), "CUDA devices: 0 | 0,1 | all")
      ("seed", po::value(&o.sweep.seed)->default_value(o.sweep.seed), "seed of the inputs")
      ("output,o", po::value(&o.output)->default_value(o.output), "CSV file the rows are appended to")
      ("run-id", po::value(&o.run_id), "identifies this run in the CSV (default: time and host)")
      ("resume", po::bool_switch(&o.resume),
       "skip the cases the CSV already holds for --run-id")
      ("case-timeout", po::value(&o.case_timeout_seconds)->default_value(o.case_timeout_seconds),
       "seconds one case may take before its worker is killed")
      ("show", po::bool_switch(&o.sweep.verbose), "print what plugins captured (hello)")
      ("zip", po::bool_switch(&o.sweep.zip),
       "pair --sizes and --blocks element by element instead of their cross product")
      ("case", po::value(&o.sweep.cases)->composing(),
       "one explicit case 'PLUGIN DTYPE SHAPE [BLOCK [OP]]' instead of the sweep (repeatable)")
      ("split", po::bool_switch(&o.split),
       "with several --devices: run each case once, sharing the cases out, instead of on each")
      ("shard", po::value(&o.shard), "run only slice i of N of the planned cases: i/N, 0 <= i < N")
      ("repetitions", po::value(&o.repetitions)->default_value(o.repetitions),
       "measure every case N times: N passes over the plan, each case in a fresh worker each "
       "time (the spread between them is what kbench compare's verdicts weigh)")
      ("samples-out", po::value(&o.samples_out), "also write every sample to this CSV file");
  po::options_description all;
  all.add(sweep).add(timing_options(o.timing, latency_off)).add(plugin_path_options(o.plugin_dirs));
  const auto vm = parse_with_config(args, all, "run");
  if (vm.count("help")) {
    std::cout << "Usage: kbench run [options]\n" << all;
    return false;
  }
  o.timing.hide_launch_latency = !latency_off;
  o.timing.keep_samples = !o.samples_out.empty();
  if (o.resume && o.run_id.empty()) throw InputError("--resume needs the --run-id to resume");
  if (o.repetitions < 1) throw InputError("--repetitions must be at least 1");
  if (!(o.timing.energy_window_seconds >= 0 && o.timing.energy_window_seconds <= 60)) {
    throw InputError("--energy-window must be from 0 to 60 seconds");
  }
  if (o.timing.rule.max_seconds <= 0 || o.timing.rule.max_noise <= 0 ||
      o.case_timeout_seconds <= 0) {
    throw InputError("--max-time, --max-noise and --case-timeout must be positive");
  }
  // Validate the lists now, so a typo fails before any plugin is loaded.
  if (!o.sweep.sizes.empty()) parse_sizes(o.sweep.sizes);
  if (!o.sweep.blocks.empty()) parse_blocks(o.sweep.blocks);
  if (!o.sweep.dtypes.empty()) parse_dtypes(o.sweep.dtypes);
  return true;
}

}  // namespace kb
