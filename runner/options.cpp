#include "options.hpp"

#include "case/case_spec.hpp"
#include "device/counters.hpp"
#include "kernel/code_cache.hpp"
#include "protocol/sandbox.hpp"
#include "tune/search_strategy.hpp"
#include "util/input_error.hpp"
#include "util/number_text.hpp"
#include "util/output_file.hpp"
#include "util/plugin_text.hpp"

#include <boost/filesystem/operations.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>

namespace kb {
namespace {

// The longest a case may take, and a sampling budget may be: beyond these a value is a typo, and
// --case-timeout's milliseconds must still count in an int.
constexpr double kMaxCaseSeconds = 7 * 24 * 3600.0;
constexpr double kMaxSamplingSeconds = 24 * 3600.0;
constexpr std::uint64_t kMaxMinSamples = 10'000'000;
constexpr std::uint64_t kMaxDevice = 62;  // the lanes of a run: kMaxLanes less the host's
constexpr std::uint64_t kMaxHostLanes = 16;  // each wants cores of its own


// A number option must be a finite value in (low, high] (or [low, high] when `low_inclusive`).
auto in_range(const char* option, double low, bool low_inclusive, double high) {
  return [=](double value) {
    const bool above_low = low_inclusive ? value >= low : value > low;
    if (!(above_low && value <= high)) {
      throw InputError(std::string(option) + " " + significant_text(value) + ": must be a number " +
                       (low_inclusive ? "at least " : "greater than ") + significant_text(low) +
                       " and at most " + significant_text(high));
    }
  };
}

// An unsigned integer option, digits alone (Boost would take "-1" as 2^64 - 1), within [low, high].
std::uint64_t count_option(const char* option, const std::string& text, std::uint64_t low,
                           std::uint64_t high) {
  const auto value = parse_unsigned(text);
  if (!value || *value < low || *value > high) {
    throw InputError(std::string(option) + " '" + text + "': must be a whole number from " +
                     std::to_string(low) + " to " + std::to_string(high));
  }
  return *value;
}

void require_not_empty(const po::variables_map& vm, const char* option) {
  if (vm.count(option) && vm[option].as<std::string>().empty()) {
    throw InputError(std::string("--") + option + " is empty");
  }
}

// A config file must be a readable regular file: an ifstream opens a folder without complaint.
// Its text is held whole: a NUL byte in it would cut short every line that echoes a value, so a
// file holding one is refused, naming the line.
std::istringstream read_config(const std::string& file) {
  struct stat info {};
  if (::stat(file.c_str(), &info) != 0) {
    throw InputError("cannot read config file '" + file + "': " + std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) {
    throw InputError("cannot read config file '" + file + "': not a regular file");
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw InputError("cannot read config file '" + file + "'");
  const std::string content = text.str();
  if (const auto nul = content.find('\0'); nul != std::string::npos) {
    const auto line = std::count(content.begin(), content.begin() + nul, '\n') + 1;
    throw InputError("config file '" + file + "': line " + std::to_string(line) +
                     " holds a NUL byte");
  }
  return std::istringstream(content);
}

// The options a config file gives. A `config` key in it is refused like an unknown one: files do
// not include others, and the command line's --config, stored first, would hide it. A key the
// command line gives is left out: the command line's values replace the file's, a repeatable
// key's too (po::store would add them to the file's).
po::parsed_options parse_config(const std::string& file,
                                const po::options_description& description,
                                bool allow_unregistered, const po::parsed_options& command_line) {
  std::istringstream in = read_config(file);
  po::parsed_options parsed = po::parse_config_file(in, description, allow_unregistered);
  std::set<std::string> given;
  for (const auto& option : command_line.options) given.insert(option.string_key);
  auto& options = parsed.options;
  for (const auto& option : options) {
    if (option.string_key == "config") {
      throw InputError("config file '" + file + "': 'config' cannot be set in a config file (one "
                       "file does not include another)");
    }
  }
  options.erase(std::remove_if(options.begin(), options.end(),
                               [&](const po::option& o) { return given.count(o.string_key) > 0; }),
                options.end());
  return parsed;
}

// Whether `path` is `folder` or lies beneath it, both as the system resolves them (symbolic
// links, `..`): as Landlock sees the file a plugin would open.
bool beneath(const boost::filesystem::path& path, const boost::filesystem::path& folder) {
  auto p = path.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
    if (*f == ".") continue;  // a trailing separator
    if (p == path.end() || *p != *f) return false;
  }
  return true;
}

// A file kbench writes (results, samples, the best configurations) must lie where no plugin may
// write: beneath a folder the sandbox grants (protocol/sandbox.hpp: the devices and shared
// memory, the caches, a child's own temporary folder), a plugin could truncate it or rewrite its
// rows, finding it through the parent's command line.
void refuse_within_plugins_reach(const char* option, const std::string& file) {
  namespace fs = boost::filesystem;
  if (file.empty()) return;
  boost::system::error_code error;
  const fs::path resolved = fs::weakly_canonical(fs::absolute(file), error);
  // A path the system refuses, or a device, a FIFO or a folder, which a plugin cannot empty: said
  // where the file is opened.
  if (error) return;
  const fs::file_type type = fs::status(resolved, error).type();
  if (type != fs::file_not_found && type != fs::regular_file) return;
  const auto refuse = [&](const std::string& folder) {
    throw InputError(std::string("--") + option + " '" + file + "' lies beneath " + folder +
                     ", where the plugins may write (kbench's sandbox grants it): keep the file " +
                     "elsewhere");
  };
  for (const auto& folder : writable_folders("", {kernel_cache_dir()})) {
    if (folder.empty()) continue;
    const fs::path granted = fs::weakly_canonical(folder, error);
    if (!error && beneath(resolved, granted)) refuse(folder);
  }
  // Each child's own temporary folder (kbench-<pid> in the temporary folder): a plugin writes
  // there, and a child of that pid, as it starts, removes a folder of the name and all it holds.
  const fs::path shared =
      fs::weakly_canonical(fs::path(private_temporary_folder(0)).parent_path(), error);
  if (error || !beneath(resolved, shared) || resolved == shared) return;
  const std::string name =
      std::next(resolved.begin(), std::distance(shared.begin(), shared.end()))->string();
  const auto pid = parse_unsigned(name.substr(name.find_last_not_of("0123456789") + 1));
  if (pid && *pid <= std::numeric_limits<pid_t>::max() &&
      fs::path(private_temporary_folder(static_cast<pid_t>(*pid))).filename() == name) {
    refuse((shared / name).string());
  }
}

}  // namespace

std::string option_number(double value) { return exact_text(value); }

po::options_description plugin_path_options(std::vector<std::string>& dirs) {
  po::options_description d("Plugin search");
  d.add_options()("plugins", po::value(&dirs)->composing(),
                  "also load plugins from this folder (repeatable)");
  return d;
}

po::options_description kernel_file_options(std::vector<std::string>& files) {
  po::options_description d("Kernel files");
  d.add_options()("kernel", po::value(&files)->composing(),
                  "also run this kernel file: a .cu (compiled with NVRTC), .ptx, .cubin or .fatbin "
                  "with its manifest beside it or in it (repeatable; without --family or --plugin, "
                  "only the kernel files run; docs/kernel-files.md)");
  return d;
}

po::options_description timing_options(TimingOptions& timing, bool& hide_latency_off) {
  StoppingRule& rule = timing.rule;
  po::options_description d("Timing");
  d.add_options()
      ("min-samples",
       po::value<std::string>()
           ->default_value(std::to_string(rule.min_samples))
           ->notifier([&rule](const std::string& text) {
             rule.min_samples = count_option("--min-samples", text, 1, kMaxMinSamples);
           }),
       "timed launches at least")
      ("min-time",
       po::value(&rule.min_seconds)
           ->default_value(rule.min_seconds)
           ->notifier(in_range("--min-time", 0, true, kMaxSamplingSeconds)),
       "seconds of sampling at least")
      ("max-time",
       po::value(&rule.max_seconds)
           ->default_value(rule.max_seconds)
           ->notifier(in_range("--max-time", 0, false, kMaxSamplingSeconds)),
       "seconds of sampling at most; a case not settled by then is marked settled=0")
      ("max-noise",
       po::value(&rule.max_noise)
           ->default_value(rule.max_noise)
           ->notifier(in_range("--max-noise", 0, false, 1)),
       "target relative half-width of the median's 95% confidence interval")
      ("no-latency-hiding", po::bool_switch(&hide_latency_off),
       "do not hold the stream with a blocking kernel while enqueueing a timed launch")
      ("cold", po::bool_switch(&timing.cold),
       "flush the L2 cache before every sample (outside the timed region)")
      ("profile", po::bool_switch(&timing.profile),
       "launch each case once, inside its NVTX range, without warm-up or sampling (for ncu --nvtx)")
      ("energy-window",
       po::value(&timing.energy_window_seconds)
           ->default_value(0)
           ->notifier(in_range("--energy-window", 0, true, 60)),
       "seconds of back-to-back launches over which each case's board energy is read through "
       "NVML (J per launch, W); 0: no energy (the counter moves every 100 ms: use 1 or more)")
      ("metrics",
       po::value(&timing.metrics)->notifier([&timing](const std::string& text) {
         timing.counters = parse_counter_list(text);
       }),
       "hardware counters of one more launch per case, through CUPTI, in the row's `counters`: "
       "sets (default, memory, shared, compute, all), short names (dram_throughput, "
       "l2_hit_rate, shared_load_bank_conflicts, ...: docs/measurement.md) or metric names "
       "(dram__bytes_read.sum), comma-separated")
      ("no-cupti",
       po::bool_switch()->notifier([&timing](bool off) { timing.cupti_clock = !off; }),
       "no CUPTI clock: leave cupti_us and cupti_kernels empty (one traced batch per case)");
  return d;
}

po::options_description case_timeout_option(double& seconds) {
  po::options_description d("Isolation");
  d.add_options()("case-timeout",
                  po::value(&seconds)->default_value(seconds)->notifier(
                      in_range("--case-timeout", 0, false, kMaxCaseSeconds)),
                  "seconds one case (or one plugin's loading or acceptance check) may take before "
                  "its process is killed");
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

po::parsed_options parse_command_line(const std::vector<std::string>& args,
                                      const po::options_description& description,
                                      const po::positional_options_description& positional) {
  constexpr int kWholeNames =
      po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
  return po::command_line_parser(args)
      .style(kWholeNames)
      .options(description)
      .positional(positional)
      .run();
}

bool GateOptions::given() const {
  return fail_slower_percent || min_effect_percent != 1 || alpha != 0.05;
}

GateRequest GateOptions::request() const {
  if (!(alpha > 0 && alpha < 1)) throw InputError("--alpha must lie between 0 and 1");
  if (!(min_effect_percent >= 0) || !(fail_slower_percent.value_or(0) >= 0)) {
    throw InputError("--min-effect and --fail-slower must be percentages of 0 or more");
  }
  GateRequest request;
  request.alpha = alpha;
  request.min_effect = min_effect_percent / 100;
  if (fail_slower_percent) request.fail_slower = *fail_slower_percent / 100;
  return request;
}

void add_gate_options(po::options_description& description, GateOptions& o) {
  description.add_options()
      ("fail-slower",
       po::value<double>()->notifier([&o](double pct) { o.fail_slower_percent = pct; }),
       "exit 1 when a case is slower, with confidence, by more than PCT percent (default: "
       "--min-effect); a case no longer ok, or missing, always fails")
      ("min-effect", po::value(&o.min_effect_percent)->default_value(o.min_effect_percent),
       "a smaller change, in percent, is 'same' however significant")
      ("alpha", po::value(&o.alpha)->default_value(o.alpha), "significance of the rank test");
}

bool parse_results_command(const std::vector<std::string>& args,
                           const po::options_description& description, const char* command,
                           const char* usage) {
  po::positional_options_description positional;
  positional.add("csv", -1);
  po::variables_map vm;
  try {
    const po::parsed_options command_line = parse_command_line(args, description, positional);
    po::store(command_line, vm);
    if (vm.count("config")) {
      // A `kbench run` config (a preset): its family and plugins, in order; the sweep's other
      // options mean nothing here and are skipped.
      const std::string file = vm["config"].as<std::string>();
      po::store(parse_config(file, description, /*allow_unregistered=*/true, command_line), vm);
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

void refuse_writing_a_file_read(const std::string& option, const std::string& output,
                                const RowSelection& selection) {
  for (const auto& file : selection.files) {
    refuse_output_onto_input(option, output, file, "the input file '" + file + "'");
  }
}

po::variables_map parse_with_config(const std::vector<std::string>& args,
                                    const po::options_description& description,
                                    const char* command) {
  po::variables_map vm;
  try {
    const po::parsed_options command_line = parse_command_line(args, description);
    po::store(command_line, vm);
    if (vm.count("config")) {
      const std::string file = vm["config"].as<std::string>();
      try {
        po::store(parse_config(file, description, /*allow_unregistered=*/false, command_line), vm);
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

po::options_description problem_options(SweepRequest& sweep) {
  po::options_description d("Problems");
  d.add_options()
      ("sizes", po::value(&sweep.sizes), "problem sizes, e.g. 1024,8192x4096,2^20,10^7+3")
      ("blocks", po::value(&sweep.blocks), "thread-block shapes, e.g. 32x8,16x16,256")
      ("dtypes", po::value(&sweep.dtypes), "data types: float32,float64,int32")
      ("ops", po::value(&sweep.ops), "operations where the family has several, e.g. sum,sumsq")
      ("param", po::value(&sweep.params)->composing(),
       "a plugin parameter's values instead of its defaults: NAME=V1,V2 (repeatable, each name "
       "once; kbench list shows each plugin's)");
  return d;
}

po::options_description results_options(RunOptions& o) {
  po::options_description d("Results");
  d.add_options()
      ("output,o", po::value(&o.output)->default_value(o.output), "CSV file the rows are appended to")
      ("run-id", po::value(&o.run_id), "identifies this run in the CSV (default: time and host)")
      ("resume", po::bool_switch(&o.resume),
       "skip the cases the CSV already holds for --run-id");
  return d;
}

void check_run_options(const po::variables_map& vm, RunOptions& o) {
  o.timing.keep_samples = !o.samples_out.empty();
  for (const char* option : {"output", "run-id", "samples-out", "shard", "devices"}) {
    require_not_empty(vm, option);
  }
  refuse_within_plugins_reach("output", o.output);
  refuse_within_plugins_reach("samples-out", o.samples_out);
  if (o.resume && o.run_id.empty()) throw InputError("--resume needs the --run-id to resume");
  if (o.timing.profile && !o.timing.counters.empty()) {
    throw InputError("--metrics reads the counters itself: it cannot be combined with --profile, "
                     "which launches each case once for Nsight Compute");
  }
  if (o.repetitions < 1 || o.repetitions > kMaxRepetitions) {
    throw InputError("--repetitions " + std::to_string(o.repetitions) +
                     ": must be a whole number from 1 to " + std::to_string(kMaxRepetitions));
  }
  // A run id is a CSV cell and a shell word of the resume command: one line of plain text.
  if (o.run_id.size() > 200 || o.run_id.find_first_of("\t\n\r") != std::string::npos ||
      clean_text(o.run_id) != o.run_id) {
    throw InputError("--run-id must be one line of printable UTF-8 text, at most 200 bytes");
  }
  if (o.timing.rule.min_seconds > o.timing.rule.max_seconds) {
    // The default --min-time yields to a shorter --max-time; a --min-time given does not.
    if (!vm["min-time"].defaulted()) {
      throw InputError("--min-time " + significant_text(o.timing.rule.min_seconds) +
                       " exceeds --max-time " + significant_text(o.timing.rule.max_seconds));
    }
    o.timing.rule.min_seconds = o.timing.rule.max_seconds;
  }
  if (vm.count("case")) {
    for (const char* sweep_option :
         {"family", "plugin", "sizes", "blocks", "dtypes", "ops", "param"}) {
      if (vm.count(sweep_option)) {
        throw InputError(std::string("--case names whole cases: it cannot be combined with --") +
                         sweep_option);
      }
    }
    if (o.sweep.zip) throw InputError("--case names whole cases: it cannot be combined with --zip");
  }
  // Validate the lists now, so a typo fails before any plugin is loaded; the message names the
  // option.
  const auto check = [&](const char* option, const auto& validate) {
    if (!vm.count(option)) return;
    try {
      validate();
    } catch (const InputError& e) {
      throw InputError(std::string("--") + option + ": " + e.what());
    }
  };
  check("sizes", [&] { parse_sizes(o.sweep.sizes); });
  check("blocks", [&] { parse_blocks(o.sweep.blocks); });
  check("dtypes", [&] { parse_dtypes(o.sweep.dtypes); });
  check("ops", [&] { split_user_list(o.sweep.ops, "operation"); });
  check("family", [&] { o.sweep.families = unique_items(o.sweep.families, "family"); });
  check("plugin", [&] { o.sweep.plugin_globs = unique_items(o.sweep.plugin_globs, "plugin glob"); });
  for (const auto& dir : o.plugin_dirs) {
    if (dir.empty()) throw InputError("--plugins names an empty folder");
  }
  for (const auto& file : o.kernel_files) {
    if (file.empty()) throw InputError("--kernel names an empty file");
  }
}

bool parse_run_options(const std::vector<std::string>& args, RunOptions& o) {
  bool latency_off = false;
  po::options_description sweep("Sweep");
  sweep.add_options()
      ("help,h", "show this help")
      ("config", po::value<std::string>(), "read these options from an INI-style file")
      ("family", po::value(&o.sweep.families)->composing(), "run only this family (repeatable)")
      ("plugin", po::value(&o.sweep.plugin_globs)->composing(),
       "run only plugins whose name matches this glob, e.g. 'transpose/shared*' (repeatable)")
      ("devices", po::value(&o.devices)->default_value(o.devices), "CUDA devices: 0 | 0,1 | all")
      ("seed",
       po::value<std::string>()
           ->default_value(std::to_string(o.sweep.seed))
           ->notifier([&o](const std::string& text) {
             o.sweep.seed = count_option("--seed", text, 0, ~std::uint64_t{0});
           }),
       "seed of the inputs")
      ("show", po::bool_switch(&o.sweep.verbose), "print what plugins captured (hello)")
      ("zip", po::bool_switch(&o.sweep.zip),
       "pair --sizes and --blocks element by element instead of their cross product")
      ("case", po::value(&o.sweep.cases)->composing(),
       "one explicit case 'PLUGIN DTYPE SHAPE [BLOCK [OP]]' instead of the sweep (repeatable)")
      ("split", po::bool_switch(&o.split),
       "with several --devices: run each case once, sharing the cases out, instead of on each")
      ("host-lanes", po::value<std::string>()->notifier([&o](const std::string& text) {
         o.host_lanes =
             text == "auto" ? 0
                            : static_cast<int>(count_option("--host-lanes", text, 1, kMaxHostLanes));
       }),
       "share the host plugins' cases out over N lanes side by side, each on cores of its own, as "
       "--split does over devices; `auto`: one per host plugin while every lane keeps 4 cores "
       "(default 1: a serial host loop is timed beside one lane's host work, not several)")
      ("shard", po::value(&o.shard), "run only slice i of N of the planned cases: i/N, 0 <= i < N")
      ("repetitions", po::value(&o.repetitions)->default_value(o.repetitions),
       "measure every case N times: N passes over the plan, each case in a fresh worker each "
       "time (the spread between them is what kbench compare's verdicts weigh); with more than "
       "one, a shape near each asked one too, into the run '<id>-hidden'")
      ("no-hidden-shapes", po::bool_switch(&o.no_hidden_shapes),
       "with --repetitions: run the asked shapes alone, no shape near them")
      ("samples-out", po::value(&o.samples_out), "also write every sample to this CSV file")
      ("best", po::value(&o.best_file),
       "run each plugin at the configuration kbench tune found best in this file, for the shapes "
       "it has (with --sizes: those sizes, untuned ones at the defaults)");
  po::options_description all;
  all.add(sweep)
      .add(problem_options(o.sweep))
      .add(results_options(o))
      .add(case_timeout_option(o.case_timeout_seconds))
      .add(timing_options(o.timing, latency_off))
      .add(plugin_path_options(o.plugin_dirs))
      .add(kernel_file_options(o.kernel_files));
  const auto vm = parse_with_config(args, all, "run");
  if (vm.count("help")) {
    std::cout << "Usage: kbench run [options]\n" << all;
    return false;
  }
  o.timing.hide_launch_latency = !latency_off;
  check_run_options(vm, o);
  require_not_empty(vm, "best");
  if (vm.count("best")) {
    for (const char* fixed : {"blocks", "param", "case", "zip"}) {
      if (vm.count(fixed) && !vm[fixed].defaulted()) {
        throw InputError(std::string("--best fixes each problem's block and parameters: it cannot "
                                     "be combined with --") + fixed);
      }
    }
  }
  return true;
}

bool parse_tune_options(const std::vector<std::string>& args, TuneOptions& o) {
  bool latency_off = false;
  RunOptions& run = o.run;
  po::options_description search("Search");
  search.add_options()
      ("help,h", "show this help")
      ("config", po::value<std::string>(), "read these options from an INI-style file")
      ("plugin", po::value(&run.sweep.plugin_globs)->composing(),
       "tune the plugins whose name matches this glob (repeatable; with --simulate: replay only "
       "their rows)")
      ("strategy", po::value<std::vector<std::string>>()->composing(),
       "exhaustive, random, greedy or anneal (default exhaustive; with --simulate, a list: "
       "default all)")
      ("budget",
       po::value<std::string>()->notifier([&o](const std::string& text) {
         o.budget = count_option("--budget", text, 1, 1'000'000'000);
       }),
       "evaluate at most N configurations per problem")
      ("time", po::value(&o.seconds)->notifier(in_range("--time", 0, false, kMaxCaseSeconds)),
       "start no evaluation after S seconds per problem")
      ("seed",
       po::value<std::string>()
           ->default_value(std::to_string(o.seed))
           ->notifier([&o](const std::string& text) {
             o.seed = count_option("--seed", text, 0, ~std::uint64_t{0});
           }),
       "seed of the strategy's random choices")
      ("best", po::value(&o.best_file)->default_value(o.best_file),
       "merge the best configuration of each problem into this JSON file (kbench run --best)")
      ("device",
       po::value<std::string>()->default_value("0")->notifier([&run](const std::string& text) {
         run.sweep.devices = {static_cast<int>(count_option("--device", text, 0, kMaxDevice))};
       }),
       "the CUDA device to tune on")
      ("input-seed",
       po::value<std::string>()
           ->default_value(std::to_string(run.sweep.seed))
           ->notifier([&run](const std::string& text) {
             run.sweep.seed = count_option("--input-seed", text, 0, ~std::uint64_t{0});
           }),
       "seed of the inputs (kbench run's --seed)");
  po::options_description simulation("Simulation (no GPU: the strategies against measured rows)");
  simulation.add_options()
      ("simulate", po::value(&o.simulate),
       "replay the strategies against the cases of this results CSV, and print how many "
       "evaluations each needs")
      ("seeds",
       po::value<std::string>()->default_value(std::to_string(o.seeds))->notifier(
           [&o](const std::string& text) { o.seeds = count_option("--seeds", text, 1, 100'000); }),
       "searches per strategy and problem, with seeds --seed, --seed + 1, ...")
      ("within", po::value(&o.within)->default_value(o.within)->notifier(in_range("--within", 0, true, 10)),
       "a configuration within this fraction of the optimum counts as found");
  po::options_description all;
  all.add(search)
      .add(problem_options(run.sweep))
      .add(results_options(run))
      .add(simulation)
      .add(case_timeout_option(run.case_timeout_seconds))
      .add(timing_options(run.timing, latency_off))
      .add(plugin_path_options(run.plugin_dirs))
      .add(kernel_file_options(run.kernel_files));
  const auto vm = parse_with_config(args, all, "tune");
  if (vm.count("help")) {
    std::cout << "Usage: kbench tune --plugin P [--sizes ...] [--strategy S] [--budget N | --time S]\n"
                 "       kbench tune --simulate CSV [--plugin P] [--strategy S,...] [--seeds K]\n"
              << all;
    return false;
  }
  run.timing.hide_launch_latency = !latency_off;
  run.sweep.every_choice = true;
  check_run_options(vm, run);
  require_not_empty(vm, "best");
  if (vm.count("strategy")) {
    o.strategies = unique_items(vm["strategy"].as<std::vector<std::string>>(), "strategy");
    for (const auto& name : o.strategies) find_strategy(name);
  }
  if (!o.simulate.empty()) {
    for (const char* measuring : {"output", "run-id", "resume", "best", "device", "sizes", "blocks",
                                  "dtypes", "ops", "param", "time", "kernel"}) {
      if (vm.count(measuring) && !vm[measuring].defaulted()) {
        throw InputError(std::string("--simulate replays measured rows and measures nothing: it "
                                     "cannot be combined with --") + measuring);
      }
    }
    return true;
  }
  refuse_within_plugins_reach("best", o.best_file);
  if (vm.count("seeds") && !vm["seeds"].defaulted()) throw InputError("--seeds goes with --simulate");
  if (vm.count("within") && !vm["within"].defaulted()) {
    throw InputError("--within goes with --simulate");
  }
  if (run.sweep.plugin_globs.empty() && run.kernel_files.empty()) {
    throw InputError("kbench tune needs --plugin or --kernel (the plugins to tune)");
  }
  if (o.strategies.size() > 1) throw InputError("kbench tune takes one --strategy (several with --simulate)");
  if (o.strategies.empty()) o.strategies = {"exhaustive"};
  if (o.strategies.front() != "exhaustive" && o.budget == 0 && o.seconds == 0) {
    throw InputError("--strategy " + o.strategies.front() + " needs --budget N or --time S");
  }
  return true;
}

std::vector<std::string> unique_items(const std::vector<std::string>& lists, const char* what) {
  std::vector<std::string> items;
  for (const auto& list : lists) {
    for (auto& item : split_user_list(list, what)) {
      if (std::find(items.begin(), items.end(), item) != items.end()) {
        throw InputError(std::string(what) + " '" + item + "' given twice");
      }
      items.push_back(std::move(item));
    }
  }
  return items;
}

}  // namespace kb
