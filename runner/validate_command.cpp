// `kbench validate FILE.so`: what a plugin author runs before sharing a plugin or a family.
//
// A strategy (or a version 1 or 2 plugin): loads the file with every check the loader makes,
// finds its referee (a version 3 strategy's family library: installed, in a --plugins folder, or
// beside the file), then runs a small case of each data type (and operation) it declares, checked,
// through the same parent/worker path as `kbench run`; a CUDA plugin's first passing case then
// runs once more under compute-sanitizer's memcheck and racecheck where the tool and a device are
// present, and an error either finds fails the validation.
// A family library: loads it with the loader's checks and says what it referees.
#include "case/case_spec.hpp"
#include "commands.hpp"
#include "device/device_info.hpp"
#include "kernel_parts.hpp"
#include "options.hpp"
#include "plugin/kernel_manifest.hpp"
#include "plugin/family_table.hpp"
#include "plugin/loader.hpp"
#include "protocol/plugin_probe.hpp"
#include "store/record_reader.hpp"
#include "store/result_record.hpp"
#include "store/results_store.hpp"
#include "util/input_error.hpp"
#include "util/sanitizer_report.hpp"
#include "util/whole_file.hpp"

#include <boost/filesystem.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <thread>

namespace kb {
namespace {

namespace fs = boost::filesystem;

// The family's small case, from its description: its referee's, the plugin's own (versions 1 and
// 2), or that of the installed parts of its family; for a family nobody describes, an odd size
// and a few blocks.
struct SmallCase {
  std::string sizes, blocks;
};

SmallCase small_case(const PluginInfo& plugin, const Discovery& installed) {
  auto described = std::make_shared<PluginInfo>(plugin);
  std::vector<std::shared_ptr<const PluginInfo>> plugins{described};
  plugins.insert(plugins.end(), installed.plugins.begin(), installed.plugins.end());
  std::vector<std::shared_ptr<const PluginInfo>> families = installed.families;
  if (plugin.referee) families.insert(families.begin(), plugin.referee);
  const FamilyTable table(families, plugins);
  if (const FamilyInfo* family = table.find(plugin.family)) {
    return {family->check_sizes, family->check_blocks.empty() ? "256" : family->check_blocks};
  }
  return {"1000", "256,32x8"};
}

std::shared_ptr<const PluginInfo> family_named(const Discovery& found, const std::string& name) {
  const auto it = std::find_if(found.families.begin(), found.families.end(),
                               [&](const auto& f) { return f->name == name; });
  return it == found.families.end() ? nullptr : *it;
}

// ---- compute-sanitizer ---------------------------------------------------------------------

// Runs argv with its standard output and error to `log`, in a process group of its own; kills
// the group after `seconds`. The exit code, 128 + the signal, or -1 when it was killed for time.
int run_logged(const std::vector<std::string>& argv, const std::string& log, double seconds) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    setpgid(0, 0);
    // The tool reaches into the worker it watches (its debugger backend, its injected library
    // writing where it was told): under it, the worker runs outside the plugin sandbox, which
    // would refuse those (docs/nothing-lost.md). The plugin ran sandboxed in validate's cases.
    setenv("KBENCH_SANDBOX", "off", 1);
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) dup2(fd, 1), dup2(fd, 2), close(fd);
    execv(args[0], args.data());
    _exit(127);
  }
  setpgid(pid, pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0) return 127;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}

std::string last_line(const std::string& text) {
  std::string line, last;
  std::istringstream lines(text);
  while (std::getline(lines, line)) {
    if (!line.empty()) last = line;
  }
  return last;
}

// The one case the tools run: the first that passed validation, as `kbench run` options.
struct ToolCase {
  std::vector<std::string> options;
  std::string label;  // "scan/blocked int32 1000 block 256"
};

ToolCase tool_case(const ResultRecord& row, const SmallCase& small) {
  ToolCase c;
  c.options = {"--sizes", row.shape, "--dtypes", row.dtype};
  c.label = row.plugin + " " + row.dtype;
  if (!row.op.empty()) {
    c.options.insert(c.options.end(), {"--ops", row.op});
    c.label += " " + row.op;
  }
  c.label += " " + row.shape;
  // A plugin that chooses its own launch shape ('-') is given no block: run refuses one.
  const std::string& block = row.block;
  if (!block.empty() && block != "-") {
    c.options.insert(c.options.end(), {"--blocks", block});
    c.label += " block " + block;
  }
  std::stringstream params(row.params);
  for (std::string param; std::getline(params, param, ';');) {
    if (param.empty()) continue;
    c.options.insert(c.options.end(), {"--param", param});
    c.label += " " + param;
  }
  return c;
}

// One tool over the case: its line, and whether it found errors.
// `selection`: the `kbench run` options that select the plugin alone ("--plugins DIR --plugin
// NAME", or "--kernel FILE").
bool run_tool(const std::string& sanitizer, const std::string& tool,
              const std::vector<std::string>& selection, const ToolCase& c, const fs::path& work,
              double case_timeout) {
  const fs::path folder = work / tool;
  fs::create_directories(folder);
  // The tool slows kernels by one or two orders of magnitude; the case is small.
  const double timeout = std::max(case_timeout, 300.0);
  std::vector<std::string> argv = {
      sanitizer, "--tool", tool, "--target-processes", "all",
      // Failed CUDA API calls are the plugin's own error statuses (and those of libraries
      // probing what the device has); the tools are asked about device code.
      "--report-api-errors", "no", "--print-limit", "10",
      "--log-file", (folder / "process.%p.log").string(),
      executable_path(), "run", "--profile", "--output", (folder / "case.csv").string(),
      "--run-id", "validate-" + tool, "--case-timeout", option_number(timeout)};
  argv.insert(argv.end(), selection.begin(), selection.end());
  argv.insert(argv.end(), c.options.begin(), c.options.end());
  const int code = run_logged(argv, (folder / "tool.out").string(), 3 * timeout + 120);
  std::string text;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".log" || entry.path().extension() == ".out") {
      text += read_whole_file(entry.path().string()).value_or("") + "\n";
    }
  }
  const SanitizerFindings found = read_sanitizer_output(text);
  std::cout << tool << ": ";
  if (found.errors > 0) {
    std::cout << found.errors << (found.errors == 1 ? " error" : " errors") << " in " << c.label
              << "; the first: " << found.first_error << "\n";
    return true;
  }
  std::size_t ok = 0;
  if (fs::exists(folder / "case.csv")) {
    for (const auto& row : read_records((folder / "case.csv").string())) ok += row.ok();
  }
  if (code == -1) {
    std::cout << "no answer within " << option_number(3 * timeout + 120) << " s (" << c.label
              << "); not counted against the plugin\n";
  } else if (!found.summarized) {
    std::cout << "the tool did not report (exit code " << code << ": "
              << last_line(read_whole_file((folder / "tool.out").string()).value_or("")) << "); not counted against the plugin\n";
  } else if (code != 0 || ok == 0) {
    std::cout << "no error found, but " << c.label << " did not pass under the tool (exit code "
              << code << ")\n";
  } else {
    std::cout << "clean (" << c.label << ")\n";
  }
  return false;
}

// Runs memcheck, then racecheck (shared-memory hazards), on the case; true when either found an
// error. Says in one line why it did not run where it cannot.
bool sanitize(const std::vector<std::string>& selection, const ToolCase& c, const fs::path& work,
              double case_timeout) {
  std::string looked;
  const std::string sanitizer = find_compute_sanitizer(looked);
  if (sanitizer.empty()) {
    std::cout << "compute-sanitizer: not installed (looked in " << looked
              << "): memcheck and racecheck not run\n";
    return false;
  }
  std::cout << "compute-sanitizer: " << sanitizer << ", on " << c.label << "\n";
  bool errors = run_tool(sanitizer, "memcheck", selection, c, work, case_timeout);
  errors = run_tool(sanitizer, "racecheck", selection, c, work, case_timeout) || errors;
  return errors;
}

// The small cases' run, counted and said in one line: whether they ran and verified, and the
// first that did (the one the tools run).
struct SmallRun {
  bool valid = false;
  std::optional<ResultRecord> first_ok;
};

SmallRun run_small_cases(const std::vector<std::string>& run_args, const fs::path& csv) {
  const int code = run_command(run_args);
  std::size_t ok = 0, total = 0;
  SmallRun run;
  if (fs::exists(csv)) {
    for (const auto& row : read_records(csv.string())) {
      ++total;
      if (row.ok()) {
        ++ok;
        if (!run.first_ok) run.first_ok = row;
      }
    }
  }
  run.valid = code == 0 && ok > 0;
  std::cout << (run.valid ? "valid: " : "invalid: ") << ok << " of " << total
            << " small cases ran and verified\n";
  return run;
}

// compute-sanitizer over a run's first verified case, unless the user said not to: true when it
// found errors, which make the plugin invalid.
bool sanitizer_finds_errors(const std::vector<std::string>& selection, const SmallRun& run,
                            const SmallCase& small, const fs::path& work, double case_timeout,
                            bool no_sanitizer) {
  if (no_sanitizer) {
    std::cout << "compute-sanitizer: not run (--no-sanitizer)\n";
    return false;
  }
  const bool errors = sanitize(selection, tool_case(*run.first_ok, small), work, case_timeout);
  if (errors) std::cout << "invalid: compute-sanitizer found errors in a case that verified\n";
  return errors;
}

// Where the tools would have run, had there been a device.
void say_no_device_for_sanitizer() {
  std::string looked;
  const std::string sanitizer = find_compute_sanitizer(looked);
  if (sanitizer.empty()) {
    std::cout << "compute-sanitizer: not installed (looked in " << looked
              << "), and no CUDA device here: memcheck and racecheck not run\n";
  } else {
    std::cout << "compute-sanitizer: " << sanitizer
              << " found, but no CUDA device here: memcheck and racecheck not run\n";
  }
}

// ---- a family library ------------------------------------------------------------------------

int validate_family(PluginProbe& probe, const PluginInfo& family) {
  std::cout << "loaded the referee of family " << family.name << " (version " << family.version
            << ", " << dtype_list(family.dtypes) << (family.ops.empty() ? "" : ", ops " + family.ops)
            << ")\n";
  if (family.family_info) {
    const FamilyInfo& f = *family.family_info;
    std::cout << "describes: shape " << f.shape_names << "; default sweep " << f.default_sizes
              << (f.default_blocks.empty() ? "" : " x " + f.default_blocks) << " x "
              << f.default_dtypes << "; small case " << f.check_sizes
              << (f.check_blocks.empty() ? "" : " x " + f.check_blocks) << "; headline "
              << f.headline << (f.reference.empty() ? "" : "; reference " + f.reference) << "\n";
  }
  // The strategies it would referee from its own folder.
  const Discovery beside = probe.discover({fs::path(family.file).parent_path().string()});
  std::vector<std::string> strategies;
  for (const auto& p : beside.plugins) {
    if (p->family == family.name && p->refereed_by_family()) strategies.push_back(p->name);
  }
  std::cout << "valid: a family library; ";
  if (strategies.empty()) {
    std::cout << "no strategy of it beside it: validate its strategies to run its cases\n";
  } else {
    std::string list;
    for (const auto& s : strategies) list += (list.empty() ? "" : ", ") + s;
    std::cout << "it referees " << list << " beside it: validate them to run its cases\n";
  }
  return 0;
}

// ---- a kernel file ---------------------------------------------------------------------------

// A shared library is a plugin; anything else (.cu, .cuh, .ptx, .cubin, .fatbin, another name
// whose manifest says its format) is a kernel file.
bool is_kernel_file(const std::string& file) {
  const std::string name = fs::path(file).filename().string();
  const std::string ext = fs::path(file).extension().string();
  return ext != ".so" && name.find(".so.") == std::string::npos;
}

// A kernel file: its manifest read and bound to its family, its variants for the family's small
// cases compiled and checked in the probe (any problem: one line, exit 2), then, with a device,
// those cases run and checked by the family, and the first that passed under compute-sanitizer.
int validate_kernel_part(const std::shared_ptr<const PluginInfo>& part, const Discovery& found,
                         PluginProbe& probe, const std::string& file,
                         const std::vector<std::string>& plugin_dirs, double case_timeout,
                         bool no_sanitizer, const std::string& sizes,
                         const std::vector<std::string>& params) {
  const KernelManifest& m = *part->kernel;
  std::cout << "loaded " << part->name << " (family " << part->family << ", version "
            << part->version << ", " << format_name(m.format) << ", " << dtype_list(part->dtypes)
            << (part->ops.empty() ? "" : ", ops " + part->ops)
            << (part->params.empty() ? "" : ", " + std::to_string(part->params.size()) + " knobs")
            << "; manifest " << m.manifest_file << ")\n";
  std::cout << "referee: the " << part->family << " family's library (version "
            << part->referee->version << ", " << part->referee->file << ")\n";

  const FamilyTable families(found.families, found.plugins);
  SmallCase small = small_case(*part, found);
  if (!sizes.empty()) small.sizes = sizes;
  const bool device = cuda_device_count(nullptr) > 0;
  SweepRequest sweep;
  sweep.sizes = small.sizes;
  sweep.blocks = small.blocks;
  sweep.dtypes = dtype_list(part->dtypes);
  sweep.devices = {device ? 0 : -1};
  sweep.params = params;
  if (device) sweep.capabilities[0] = device_capability(0);
  Plan plan = plan_sweep({part}, sweep, families, probe);
  check_planned_kernels(probe, plan);
  const auto planned = std::count_if(plan.cases.begin(), plan.cases.end(),
                                     [](const PlannedCase& c) { return !c.outcome; });
  if (planned == 0) {
    // Nothing was compiled or checked: saying it passed would be a lie.
    const auto refused = std::find_if(plan.cases.begin(), plan.cases.end(),
                                      [](const PlannedCase& c) { return c.outcome.has_value(); });
    std::cout << file << ": no case to check: " << (sizes.empty() ? "the manifest refuses every "
                                                                     "small case of its family ("
                                                                   : "the manifest refuses every "
                                                                     "case asked for (")
              << sweep.sizes << (refused != plan.cases.end() ? "; first: " + refused->outcome->message : "")
              << "); give one it takes with --sizes (and --param)\n";
    return 1;
  }
  if (!device) {
    const char* checked =
        m.format == KernelFormat::source ? "compiled, each kernel found and its parameters checked,"
        : m.format == KernelFormat::ptx  ? "parameters checked against its PTX"
        : m.format == KernelFormat::cubin
            ? "each entry found in its ELF symbol table and its parameters checked"
            : "read (a fatbin's kernels and parameters are the driver's to tell, on a device)";
    std::cout << checked << " for " << planned << " " << (sizes.empty() ? "small " : "")
              << "case" << (planned == 1 ? "" : "s") << "; no CUDA device here, so no case "
              << "was run\n";
    if (!no_sanitizer) say_no_device_for_sanitizer();
    return 0;
  }

  const fs::path work = fs::temp_directory_path() / fs::unique_path("kbench-validate-%%%%-%%%%");
  fs::create_directories(work);
  std::vector<std::string> run_args = {
      "--kernel", file, "--sizes", small.sizes, "--dtypes", sweep.dtypes, "--max-time", "0.05",
      "--output", (work / "validate.csv").string(), "--run-id", "validate", "--case-timeout",
      option_number(case_timeout)};
  if (!(part->flags & KB_FLAG_OWN_LAUNCH_SHAPE)) {
    run_args.insert(run_args.end(), {"--blocks", small.blocks});
  }
  for (const auto& dir : plugin_dirs) run_args.insert(run_args.end(), {"--plugins", dir});
  for (const auto& param : params) run_args.insert(run_args.end(), {"--param", param});
  const SmallRun run = run_small_cases(run_args, work / "validate.csv");
  std::vector<std::string> selection = {"--kernel", file};
  for (const auto& dir : plugin_dirs) selection.insert(selection.end(), {"--plugins", dir});
  const bool sanitizer_errors =
      run.valid &&
      sanitizer_finds_errors(selection, run, small, work, case_timeout, no_sanitizer);
  boost::system::error_code ignored;
  fs::remove_all(work, ignored);
  return run.valid && !sanitizer_errors ? 0 : 1;
}

// Each strategy of the file's manifest, in turn; 1 when any is not valid.
int validate_kernel(const std::string& file, const std::vector<std::string>& plugin_dirs,
                    double case_timeout, bool no_sanitizer, const std::string& sizes,
                    const std::vector<std::string>& params) {
  prepare_kernel_cache({file});
  PluginProbe probe(executable_path(), case_timeout);
  const Discovery found = probe.discover(plugin_search_path(plugin_dirs));
  int result = 0;
  for (const auto& part : load_kernel_parts({file}, found.families, found.plugins)) {
    result = std::max(result, validate_kernel_part(part, found, probe, file, plugin_dirs,
                                                   case_timeout, no_sanitizer, sizes, params));
  }
  return result;
}

}  // namespace

int validate_command(const std::vector<std::string>& args) {
  std::string given;
  double case_timeout = 60;
  bool no_sanitizer = false;
  std::vector<std::string> plugin_dirs;
  std::string sizes;
  std::vector<std::string> params;
  po::options_description description("kbench validate");
  description.add_options()("help,h", "show this help")(
      "plugin-file", po::value(&given)->required(),
      "the strategy's (or family's) shared library, or a kernel file with its manifest")(
      "no-sanitizer", po::bool_switch(&no_sanitizer),
      "do not run the small case under compute-sanitizer (memcheck, racecheck)")(
      "sizes", po::value(&sizes),
      "a kernel file: the shapes to check instead of its family's small ones (2^20,33x31)")(
      "param", po::value(&params)->composing(),
      "a kernel file: NAME=V1,V2 for a knob, as run takes it (repeatable)");
  description.add(case_timeout_option(case_timeout));
  description.add(plugin_path_options(plugin_dirs));
  po::positional_options_description positional;
  positional.add("plugin-file", 1);
  po::variables_map vm;
  try {
    po::store(parse_command_line(args, description, positional), vm);
    if (vm.count("help")) {
      std::cout << "Usage: kbench validate FILE.so|FILE.cu|FILE.cuh|FILE.ptx|FILE.cubin|FILE.fatbin "
                   "[--sizes S] [--param NAME=V] [--plugins DIR] [--case-timeout S] "
                   "[--no-sanitizer]\n"
                << "A version 3 strategy's family library (its referee) is looked for among the "
                   "installed plugins, in each --plugins folder, then beside FILE.so.\n"
                << description;
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string("kbench validate: ") + e.what());
  }
  if (given.empty()) throw InputError("kbench validate: the plugin file is empty");
  const std::string file = fs::absolute(given).lexically_normal().string();
  boost::system::error_code error;
  const fs::file_status status = fs::status(file, error);
  if (status.type() == fs::directory_file) {
    throw InputError("'" + given + "' is a folder, not a plugin or kernel file");
  }
  if (status.type() == fs::file_not_found) throw InputError("no such file '" + given + "'");
  if (error) throw InputError("cannot use '" + given + "': " + error.message());
  if (status.type() != fs::regular_file) {
    throw InputError("'" + given + "' is not a regular file (a plugin or kernel file)");
  }
  if (is_kernel_file(file)) {
    return validate_kernel(given, plugin_dirs, case_timeout, no_sanitizer, sizes, params);
  }
  if (!sizes.empty() || !params.empty()) {
    throw InputError("kbench validate: --sizes and --param are for a kernel file; a plugin is "
                     "checked on its family's small cases");
  }
  std::string failure;
  PluginProbe probe(executable_path(), case_timeout);
  const auto plugin = probe.load(file, failure);
  if (!plugin) {
    std::cout << file << ": invalid: " << failure << "\n";
    return 1;
  }
  if (plugin->kind == PartKind::family) return validate_family(probe, *plugin);

  std::cout << "loaded " << plugin->name << " (family " << plugin->family << ", version "
            << plugin->version << ", " << (plugin->device == KB_DEVICE_CUDA ? "cuda" : "host")
            << ", " << dtype_list(plugin->dtypes)
            << (plugin->ops.empty() ? "" : ", ops " + plugin->ops)
            << (plugin->cuda_archs.empty() ? "" : ", built for " + plugin->cuda_archs) << ")\n";
  if (plugin->description.empty()) {
    std::cout << "invalid: the description is empty\n";
    return 1;
  }

  // The referee. A version 3 strategy's is its family's library: installed, else in a --plugins
  // folder, else beside the strategy (copied with it). A version 1 or 2 plugin is its own.
  const Discovery installed = probe.discover(plugin_search_path({}));
  auto api = std::make_shared<PluginInfo>(*plugin);
  std::string referee_copy;  // a family library to run beside the strategy, not installed
  if (api->refereed_by_family()) {
    api->referee = family_named(installed, api->family);
    for (const auto& dir : plugin_dirs) {
      if (api->referee) break;
      if ((api->referee = family_named(probe.discover({dir}), api->family))) {
        referee_copy = api->referee->file;
      }
    }
    if (!api->referee) {
      if ((api->referee = family_named(probe.discover({fs::path(file).parent_path().string()}),
                                       api->family))) {
        referee_copy = api->referee->file;
      }
    }
    if (!api->referee) {
      std::cout << "invalid: no referee: the library of the '" << api->family
                << "' family (exporting " << KB_FAMILY_ENTRY_SYMBOL
                << ") is neither installed, nor in a --plugins folder, nor beside the plugin\n";
      return 1;
    }
    if (!(api->referee->dtypes & api->dtypes)) {
      std::cout << "invalid: the " << api->family << " family defines none of its data types ("
                << dtype_list(api->dtypes) << "; the family: " << dtype_list(api->referee->dtypes)
                << ")\n";
      return 1;
    }
    std::cout << "referee: the " << api->family << " family's library (version "
              << api->referee->version << ", " << api->referee->file << ")\n";
  } else {
    std::cout << "referee: the plugin itself (ABI version " << api->abi_version
              << "): its rows say referee=plugin\n";
  }

  if (api->device == KB_DEVICE_CUDA && cuda_device_count(nullptr) == 0) {
    std::cout << "ABI and metadata valid; no CUDA device here, so no case was run\n";
    if (!no_sanitizer) say_no_device_for_sanitizer();
    return 0;
  }

  const fs::path work = fs::temp_directory_path() / fs::unique_path("kbench-validate-%%%%-%%%%");
  fs::create_directories(work / "plugin");
  // Alone in a folder of its own, so nothing else there is loaded beside it.
  fs::copy_file(file, work / "plugin" / fs::path(file).filename());
  if (!referee_copy.empty()) {
    fs::copy_file(referee_copy, work / "plugin" / fs::path(referee_copy).filename());
  }
  const SmallCase small = small_case(*api, installed);
  std::string dtypes = dtype_list(api->dtypes & ~static_cast<std::uint32_t>(KB_DTYPE_NONE));
  std::vector<std::string> run_args = {
      "--plugins", (work / "plugin").string(), "--plugin", api->name, "--sizes", small.sizes,
      "--max-time", "0.05", "--output", (work / "validate.csv").string(), "--run-id", "validate"};
  if (!(api->flags & KB_FLAG_OWN_LAUNCH_SHAPE)) {
    run_args.insert(run_args.end(), {"--blocks", small.blocks});
  }
  run_args.insert(run_args.end(), {"--case-timeout", option_number(case_timeout)});
  if (!dtypes.empty()) run_args.insert(run_args.end(), {"--dtypes", dtypes});
  const SmallRun run = run_small_cases(run_args, work / "validate.csv");

  bool sanitizer_errors = false;
  if (run.valid && api->device == KB_DEVICE_HOST && !no_sanitizer) {
    std::cout << "compute-sanitizer: not run: a host plugin has no kernels to check\n";
  } else if (run.valid && api->device == KB_DEVICE_CUDA) {
    sanitizer_errors =
        sanitizer_finds_errors({"--plugins", (work / "plugin").string(), "--plugin", api->name},
                               run, small, work, case_timeout, no_sanitizer);
  }
  boost::system::error_code ignored;
  fs::remove_all(work, ignored);
  return run.valid && !sanitizer_errors ? 0 : 1;
}

// Each strategy of the file's manifest, in turn; 1 when any is not valid.
int validate_kernel(const std::string& file, const std::vector<std::string>& plugin_dirs,
                    double case_timeout, bool no_sanitizer, const std::string& sizes,
                    const std::vector<std::string>& params) {
  prepare_kernel_cache({file});
  PluginProbe probe(executable_path(), case_timeout);
  const Discovery found = probe.discover(plugin_search_path(plugin_dirs));
  int result = 0;
  for (const auto& part : load_kernel_parts({file}, found.families, found.plugins)) {
    result = std::max(result, validate_kernel_part(part, found, probe, file, plugin_dirs,
                                                   case_timeout, no_sanitizer, sizes, params));
  }
  return result;
}

}  // namespace kb
