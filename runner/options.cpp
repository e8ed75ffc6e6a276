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

po::options_description timing_options(StoppingRule& rule, bool& hide_latency_off) {
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
       "do not hold the stream with a blocking kernel while enqueueing a timed launch");
  return d;
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
      ("show", po::bool_switch(&o.sweep.verbose), "print what plugins captured (hello)");
  po::options_description all;
  all.add(sweep).add(timing_options(o.rule, latency_off)).add(plugin_path_options(o.plugin_dirs));
  const auto vm = parse_with_config(args, all, "run");
  if (vm.count("help")) {
    std::cout << "Usage: kbench run [options]\n" << all;
    return false;
  }
  o.hide_launch_latency = !latency_off;
  if (o.resume && o.run_id.empty()) throw InputError("--resume needs the --run-id to resume");
  if (o.rule.max_seconds <= 0 || o.rule.max_noise <= 0 || o.case_timeout_seconds <= 0) {
    throw InputError("--max-time, --max-noise and --case-timeout must be positive");
  }
  // Validate the lists now, so a typo fails before any plugin is loaded.
  if (!o.sweep.sizes.empty()) parse_sizes(o.sweep.sizes);
  if (!o.sweep.blocks.empty()) parse_blocks(o.sweep.blocks);
  if (!o.sweep.dtypes.empty()) parse_dtypes(o.sweep.dtypes);
  return true;
}

}  // namespace kb
