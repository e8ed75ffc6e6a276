// `kbench worker`: the child side. Loads one plugin, runs the cases the parent sends one at a time
// and answers each with a result record. Anything that kills this process costs only the case in
// flight: the parent records it and starts a fresh worker.
#include "commands.hpp"
#include "device/bandwidth.hpp"
#include "kernel/kernel_strategy.hpp"
#include "measure/case_runner.hpp"
#include "options.hpp"
#include "plugin/loader.hpp"
#include "protocol/codec.hpp"
#include "protocol/sandbox.hpp"
#include "protocol/sequence.hpp"
#include "util/number_text.hpp"
#include "util/short_of_resources.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>

#include <iostream>

namespace kb {
namespace {

constexpr int kResultsFd = 3;

// `sequence`: the number of the case answered (sequence.hpp); 0 for the hello.
void send(const std::string& kind, Record record, std::uint64_t sequence) {
  set_sequence(record, sequence);
  if (!write_text(kResultsFd, encode_record(kind, record))) _exit(0);  // the parent is gone
}

}  // namespace

int worker_command(const std::vector<std::string>& args) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Ctrl-C reaches the whole process group: the parent decides whether the case in flight ends.
  signal(SIGINT, SIG_IGN);
  // Results travel on descriptor 3; a plugin's printing (hello, debugging) must not reach the
  // parent's terminal uninvited, so standard output goes nowhere.
  if (const int null = open("/dev/null", O_WRONLY); null >= 0) dup2(null, 1), close(null);

  std::string file, family_file, kernel_file, kernel_sha256, planned_as;
  int device = -1;
  MeasuredBandwidth bandwidth;
  TimingOptions timing;
  bool latency_off = false;
  po::options_description description;
  description.add_options()("plugin-file", po::value(&file), "")(
      "family-file", po::value(&family_file), "")("kernel-file", po::value(&kernel_file), "")(
      "kernel-sha256", po::value(&kernel_sha256), "")("planned-as", po::value(&planned_as), "")(
      "device", po::value(&device), "")("copy-gbps", po::value(&bandwidth.copy_gbps), "")(
      "read-gbps", po::value(&bandwidth.read_gbps), "")("l2-gbps", po::value(&bandwidth.l2_gbps),
                                                         "");
  description.add_options()("keep-samples", po::bool_switch(&timing.keep_samples), "");
  description.add(timing_options(timing, latency_off));
  po::variables_map vm;
  po::store(parse_command_line(args, description), vm);
  po::notify(vm);
  timing.hide_launch_latency = !latency_off;

  Record hello;
  try {
    // Before any of the plugin's code runs, its static constructors included. Nothing here
    // compiles: a kernel file's code was built before the run (`kbench compile`) and is only
    // read from the cache folder.
    enter_sandbox();
    // The strategy: a plugin's library, or kbench's own for a kernel file (whose hooks load the
    // built code and launch the file's kernels as its manifest says).
    std::shared_ptr<const LoadedPlugin> plugin;
    std::unique_ptr<KernelFileStrategy> kernel;
    // The referee: the family's own library, loaded beside the strategy it judges.
    std::shared_ptr<const LoadedPlugin> family;
    if (!family_file.empty()) family = load_plugin(family_file);
    if (family && family->family == nullptr) throw LoadError(family_file + " is not a family");
    if (!kernel_file.empty()) {
      auto manifest = std::make_shared<KernelManifest>(read_kernel_manifest(kernel_file, planned_as));
      if (manifest->sha256 != kernel_sha256) {
        throw LoadError(kernel_file + " changed since the run planned it (sha256 " +
                        manifest->sha256 + ", was " + kernel_sha256 + ")");
      }
      if (!family) throw LoadError(manifest->name + ": a kernel file needs its family's library");
      bind_to_family(*manifest, family->info);
      kernel = std::make_unique<KernelFileStrategy>(manifest, device, CodeCache(kernel_cache_dir()));
    } else {
      plugin = load_plugin(file);
    }
    if (!kernel && plugin->api == nullptr) throw LoadError(file + " is not a strategy");
    if (!kernel && planned_identity(plugin->info) != planned_as) {
      throw LoadError(file + " describes itself otherwise than when the run planned its cases (" +
                      planned_identity(plugin->info) + "; planned: " + planned_as + ")");
    }
    const KernelPlugin& api = kernel ? kernel->plugin() : *plugin->api;
    if (!kernel && plugin->info.refereed_by_family() && !family) {
      throw LoadError(plugin->info.name + ": a version 3 strategy needs its family's library");
    }
    if (api.device == KB_DEVICE_CUDA && bandwidth.copy_gbps <= 0) {
      bandwidth = measure_bandwidth(device);
    }
    hello["copy_gbps"] = exact_text(bandwidth.copy_gbps);
    hello["read_gbps"] = exact_text(bandwidth.read_gbps);
    hello["l2_gbps"] = exact_text(bandwidth.l2_gbps);
    CaseRunner runner(api, family ? family->family : nullptr, device, timing);
    send("hello", hello, 0);

    LineReader input(0);
    std::string line, kind;
    Record fields;
    while (input.read_line(line, -1) == LineReader::Status::line) {
      if (!decode_record(line, kind, fields) || kind != "case") continue;
      const std::uint64_t sequence = take_sequence(fields).value_or(0);
      const CaseRequest request = decode_case(fields);
      CaseOutcome outcome = runner.run(request);
      // A kernel file's row says how its code was made (the parent adds the file and its
      // content hash): a nightly run sees an edited kernel or another compiler.
      if (kernel && !outcome.context_lost) outcome.kernel_compiler = kernel->compiler(request);
      send("result", encode_outcome(outcome), sequence);
      if (outcome.context_lost) return 0;
    }
  } catch (const ShortOfResources& e) {
    hello["short"] = e.what();
    send("hello", hello, 0);
    return 1;
  } catch (const std::exception& e) {
    hello["error"] = e.what();
    send("hello", hello, 0);
    return 1;
  }
  return 0;
}

}  // namespace kb
