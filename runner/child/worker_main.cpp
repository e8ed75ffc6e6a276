// `kbench worker`: the child side that times one strategy. Opens its device when told which (the
// parent starts it while another worker still times, so that its CUDA context is ready when its
// turn comes), then reads its settings, loads the plugin, runs the cases the parent sends one at a
// time and answers each with a result record. A version 3
// strategy's family is not here: it runs in the referee process, reached on descriptor 4, which
// draws, poisons and checks on request and tells the parent its verdict itself. Anything that
// kills this process costs only the case in flight: the parent records it and starts a fresh
// worker.
#include "child/child_commands.hpp"
#include "device/cupti_library.hpp"
#include "device/device_info.hpp"
#include "kernel/kernel_strategy.hpp"
#include "measure/case_timer.hpp"
#include "measure/worker_settings.hpp"
#include "plugin/loader.hpp"
#include "protocol/code_seal.hpp"
#include "protocol/codec.hpp"
#include "protocol/packet_channel.hpp"
#include "protocol/sandbox.hpp"
#include "protocol/sequence.hpp"
#include "util/short_of_resources.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <optional>

namespace kb {
namespace {

constexpr int kResultsFd = 3;
constexpr int kRefereeFd = 4;

// `sequence`: the number of the request answered (sequence.hpp).
void send(const std::string& kind, Record record, std::uint64_t sequence) {
  set_sequence(record, sequence);
  if (!write_text(kResultsFd, encode_record(kind, record))) _exit(0);  // the parent is gone
}

// Standard output becomes a file in memory, appended to: a plugin's printing (hello, debugging)
// must not reach the parent's terminal uninvited, and what a launch prints is what the referee's
// family may read (hello's transcript), from the same file.
// What the CUDA driver and CUPTI open by name only when they first need it: the PTX JIT compiler
// (a kernel built as PTX only), the profiler's libraries (--metrics). Loaded before the seal, since
// nothing can be mapped as code after it.
void load_before_the_seal(const TimingOptions& timing) {
  ::dlopen("libnvidia-ptxjitcompiler.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!timing.counters.empty()) {
    for (const char* file : {"libnvperf_host.so", "libnvperf_target.so"}) {
      CuptiLibrary::get().load_beside(file);
    }
  }
}

int output_into_memory() {
  const int file = ::memfd_create("kbench-worker-stdout", MFD_CLOEXEC);
  if (file < 0) {
    throw ShortOfResources("capture the worker's standard output",
                           std::string("memfd_create: ") + std::strerror(errno));
  }
  ::fcntl(file, F_SETFL, O_APPEND);
  ::dup2(file, STDOUT_FILENO);
  return file;
}

}  // namespace

int worker_command(const std::vector<std::string>&) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Ctrl-C reaches the whole process group: the parent decides whether the case in flight ends.
  signal(SIGINT, SIG_IGN);

  LineReader input(0);
  std::string line, kind;
  Record fields;
  const auto next_request = [&](const char* expected) {
    return input.read_line(line, -1) == LineReader::Status::line &&
           decode_record(line, kind, fields) && kind == expected;
  };
  // Either fails as a greeting that says why, and the worker ends.
  const auto refuse = [](const std::exception& e, const char* greeting, std::uint64_t sequence) {
    WorkerGreeting why;
    (dynamic_cast<const ShortOfResources*>(&e) ? why.short_of : why.error) = e.what();
    send(greeting, encode_worker_greeting(why), sequence);
    return 1;
  };

  if (!next_request("open")) return 1;
  const std::uint64_t open_sequence = take_sequence(fields).value_or(0);
  int device = -1, output = -1;
  try {
    device = decode_device_opening(fields);
    output = output_into_memory();
    // The device opened while the process may still open the driver's nodes.
    if (device >= 0) open_device(device);
  } catch (const std::exception& e) {
    return refuse(e, "opened", open_sequence);
  }
  send("opened", encode_worker_greeting({}), open_sequence);

  if (!next_request("settings")) return 1;
  const std::uint64_t settings_sequence = take_sequence(fields).value_or(0);
  try {
    const WorkerSettings settings = decode_worker_settings(fields);
    if (settings.device != device) {
      throw ProtocolError("settings for device " + std::to_string(settings.device) +
                          " to a worker that opened device " + std::to_string(device));
    }
    // The sandbox before any of the plugin's code runs, its static constructors included. Nothing
    // here compiles: a kernel file's code was built before the run (`kbench compile`) and is only
    // read from the cache folder.
    std::vector<pid_t> protected_pids;
    if (settings.referee_pid > 0) protected_pids.push_back(settings.referee_pid);
    enter_sandbox({}, protected_pids);
    // The strategy: a plugin's library, or kbench's own for a kernel file (whose hooks load the
    // built code and launch the file's kernels as its manifest says).
    std::shared_ptr<const LoadedPlugin> plugin;
    std::unique_ptr<KernelFileStrategy> kernel;
    // A version 1 or 2 plugin's family counts its work; nothing of a version 3 family is here.
    std::shared_ptr<const LoadedPlugin> family;
    if (!settings.family_file.empty()) family = load_plugin(settings.family_file);
    if (family && family->family == nullptr) {
      throw LoadError(settings.family_file + " is not a family");
    }
    if (!settings.kernel_file.empty()) {
      auto manifest =
          std::make_shared<KernelManifest>(
          read_kernel_manifest(settings.kernel_file, settings.planned_as));
      if (manifest->sha256 != settings.kernel_sha256) {
        throw LoadError(settings.kernel_file + " changed since the run planned it (sha256 " +
                        manifest->sha256 + ", was " + settings.kernel_sha256 + ")");
      }
      if (!settings.family) throw LoadError(manifest->name + ": a kernel file needs its family");
      bind_to_family(*manifest, *settings.family);
      kernel = std::make_unique<KernelFileStrategy>(manifest, settings.device,
                                                    CodeCache(kernel_cache_dir()));
    } else {
      plugin = load_plugin(settings.plugin_file);
    }
    if (!kernel && plugin->api == nullptr) throw LoadError(settings.plugin_file + " is not a strategy");
    if (!kernel && planned_identity(plugin->info) != settings.planned_as) {
      throw LoadError(settings.plugin_file +
                      " describes itself otherwise than when the run planned its cases (" +
                      planned_identity(plugin->info) + "; planned: " + settings.planned_as + ")");
    }
    const KernelPlugin& api = kernel ? kernel->plugin() : *plugin->api;
    const bool refereed = kernel || plugin->info.refereed_by_family();
    if (refereed && !settings.refereed) {
      throw LoadError(std::string(api.name) + ": a version 3 strategy needs its family's referee");
    }
    PacketChannel referee(refereed ? kRefereeFd : -1);
    CaseTimer runner(api, family ? family->family : nullptr, refereed ? &referee : nullptr,
                      output, settings.device, settings.timing);
    // Everything the worker will map as code is loaded; from here no code changes, and the clock's
    // relocation tables stay as they are.
    load_before_the_seal(settings.timing);
    const CodeSeal seal = CodeSeal::apply();
    send("hello", encode_worker_greeting({}), settings_sequence);

    while (input.read_line(line, -1) == LineReader::Status::line) {
      if (!decode_record(line, kind, fields) || kind != "case") continue;
      const std::uint64_t sequence = take_sequence(fields).value_or(0);
      const CaseRequest request = decode_case(fields);
      CaseOutcome outcome = runner.run(request);
      if (const auto tampered = seal.tampered()) {
        // The clock's path was rewritten while the case ran: nothing it measured stands, and the
        // process is not to be trusted with another case.
        outcome = CaseOutcome::without_run(
            CaseStatus::error, "the worker's code was changed during the case (" + *tampered +
                                   "): its timings are not the device's");
        send("result", encode_outcome(outcome), sequence);
        return 0;
      }
      // A kernel file's row says how its code was made (the parent adds the file and its
      // content hash): a nightly run sees an edited kernel or another compiler.
      if (kernel && !outcome.context_lost) outcome.kernel_compiler = kernel->compiler(request);
      send("result", encode_outcome(outcome), sequence);
      if (outcome.context_lost) return 0;
    }
  } catch (const std::exception& e) {
    return refuse(e, "hello", settings_sequence);
  }
  return 0;
}

}  // namespace kb
