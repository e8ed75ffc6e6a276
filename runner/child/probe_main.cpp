// `kbench probe`: the child that runs a plugin's untrusted code for the parent (see
// plugin_probe.hpp and file_probe.hpp). It serves one file, the one its first request names, and
// refuses requests about any other: a plugin's code never runs where another's questions are
// answered. It answers each `load` record with the plugin's descriptor (`plugin`), the loader's
// reason (`refused`) or kbench's own shortage (`short`), each `accepts` record with the plugin's
// `verdict`, and a `kernel` record with the kernel file's check. Before each step that runs plugin
// code it says so (`step`), so that the parent can name the step a crash or a hang happened in,
// and knows that a shortage said before any step is kbench's.
#include "case/case_spec.hpp"
#include "child/child_commands.hpp"
#include "plugin/kernel_manifest.hpp"
#include "plugin/loader.hpp"
#include "protocol/child_answers.hpp"
#include "protocol/codec.hpp"
#include "protocol/kernel_request.hpp"
#include "protocol/sandbox.hpp"
#include "protocol/sequence.hpp"
#include "util/input_error.hpp"
#include "util/plugin_text.hpp"
#include "util/short_of_resources.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kb {
namespace {

constexpr int kAnswersFd = 3;

// The number of the request being answered (sequence.hpp), copied into each record sent for it.
std::uint64_t g_sequence = 0;

void send(const std::string& kind, Record record) {
  set_sequence(record, g_sequence);
  if (!write_text(kAnswersFd, encode_record(kind, record))) _exit(0);  // the parent is gone
}

// Descriptors loading a library may need at once (its file, then each dependency, one at a
// time, with room to spare): checked before any plugin code runs, so that a limit too low to load
// anything is said as kbench's trouble, never blamed on the file.
constexpr int kDescriptorsToLoad = 8;

bool descriptors_to_load() {
  int held[kDescriptorsToLoad];
  int count = 0;
  while (count < kDescriptorsToLoad && (held[count] = fcntl(0, F_DUPFD_CLOEXEC, 0)) >= 0) ++count;
  for (int i = 0; i < count; ++i) close(held[i]);
  return count == kDescriptorsToLoad;
}

// Where the manifest's operands are not among the family's: a family allocates a small case on
// the host (its first check size) and says how many inputs and outputs it has. "" when they are,
// or when the family cannot say.
std::string check_operands(const KernelManifest& m, const KernelFamily& family) {
  if (family.info == nullptr) return "";
  const FamilyInfo f = describe_family_fields(*family.info);
  Extent shape;
  try {
    shape = broadcast(parse_sizes(f.check_sizes).front(), f.rank);
  } catch (const std::exception&) {
    return "";
  }
  for (std::uint32_t bit = 1; bit != 0 && bit <= m.dtypes; bit <<= 1) {
    if (!(m.dtypes & bit)) continue;
    CaseRequest r;
    r.dtype = static_cast<kb_dtype>(bit);
    r.op = m.ops.empty() ? "" : m.ops.front();
    r.shape = shape;
    r.block.dims = {32, 1, 1};
    r.device = -1;
    const kb_case c = r.to_abi();
    void* state = nullptr;
    kb_buffers buffers{};
    kb_message message{};
    if (family.create(&c, KB_DEVICE_HOST, &state, &buffers, &message) != KB_OK) continue;
    family.destroy(state);
    for (const auto& step : m.launches) {
      for (std::size_t i = 0; i < step.args.size(); ++i) {
        const KernelArg& a = step.args[i];
        const bool input = a.role == ArgRole::input;
        if (!input && a.role != ArgRole::output && a.result_of < 0) continue;
        const int index = a.result_of >= 0 ? a.result_of : a.index;
        const std::uint32_t count = input ? buffers.input_count : buffers.output_count;
        if (static_cast<std::uint32_t>(index) >= count) {
          return a.describe(i) + ": the " + m.family + " family has " + std::to_string(count) +
                 (input ? " input" : " output") + (count == 1 ? "" : "s") +
                 (count == 0 ? "" : std::string(" (") + (input ? "input" : "output") + ":0" +
                                        (count > 1 ? " to :" + std::to_string(count - 1) : "") + ")");
        }
      }
    }
    return "";
  }
  return "";
}

// A `kernel` record: the kernel file read again (it must be the file the parent read), bound to
// its family's library and its operands held to the family's. Its code is compiled elsewhere
// (`kbench compile`), never in a process that has run plugin code.
void check_kernel(const Record& fields) {
  try {
    const KernelFileRequest request = decode_kernel_request(fields);
    const std::string& file = request.file;
    // Each strategy of the file (its manifest may hold several).
    std::vector<KernelManifest> manifests = read_kernel_manifests(file);
    if (manifests.front().sha256 != request.sha256) {
      throw InputError(file + ": the file changed since kbench read it");
    }
    const std::string& family_file = request.family_file;
    if (family_file.empty()) throw InputError(file + ": no library of its family");
    send("step", encode_step("loading the family library"));
    const auto family = load_plugin(family_file);
    if (family->family == nullptr) throw InputError(family_file + " is not a family");
    for (auto& manifest : manifests) {
      bind_to_family(manifest, family->info);
      if (const std::string wrong = check_operands(manifest, *family->family); !wrong.empty()) {
        throw InputError(file + ": " + (manifests.size() > 1 ? manifest.name + ": " : "") + wrong);
      }
    }
    send("built", encode_built({}));
  } catch (const std::exception& e) {
    send("refused", encode_reason(e.what()));
  }
}

}  // namespace

int probe_command(const std::vector<std::string>&) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // What a plugin prints while it loads must not reach the parent's terminal uninvited.
  if (const int null = open("/dev/null", O_WRONLY); null >= 0) dup2(null, 1), close(null);
  // Loading runs the plugins' static constructors and kbench_plugin(): nothing here writes
  // beneath the compiled-code cache (`kbench compile` does), so no plugin can either. A sandbox
  // that cannot be entered (no room for the temporary folder) is kbench's trouble: the answer to
  // every request, before any plugin code has run.
  std::string trouble;
  try {
    enter_sandbox();
  } catch (const ShortOfResources& e) {
    trouble = e.what();
  } catch (const std::exception& e) {
    trouble = std::string("kbench cannot confine its probe process (") + e.what() +
              "): kbench's own trouble, not a plugin's";
  }

  std::string served;  // the file this probe answers for
  std::shared_ptr<const LoadedPlugin> plugin;
  const auto step = [](const char* name) { send("step", encode_step(name)); };
  LineReader input(0);
  std::string line, kind;
  Record fields;
  while (input.read_line(line, -1) == LineReader::Status::line) {
    if (!decode_record(line, kind, fields) || !fields.count("file")) continue;
    g_sequence = take_sequence(fields).value_or(0);
    const std::string file = fields["file"];
    if (!trouble.empty()) {
      send("short", encode_reason(trouble));
      continue;
    }
    if (served.empty()) served = file;
    if (file != served) {
      send("refused", encode_reason("this probe answers for " + served + " alone"));
      continue;
    }
    if (kind == "kernel") {
      check_kernel(fields);
      continue;
    }
    fields.erase("file");
    if (!plugin) {
      if (!descriptors_to_load()) {
        send("short", encode_reason(ShortOfResources("load " + file, std::strerror(EMFILE)).what()));
        continue;
      }
      try {
        plugin = load_plugin(file, step);
      } catch (const LoadError& e) {
        send("refused", encode_reason(e.what()));
        continue;
      } catch (const ShortOfResources& e) {
        send("short", encode_reason(e.what()));
        continue;
      }
    }
    if (kind == "load") {
      send("plugin", encode_plugin(plugin->info));
    } else if (kind == "accepts") {
      const CaseRequest request = decode_case(fields);
      const kb_case c = request.to_abi();
      kb_message why{};
      step("accepts()");
      const auto accepts = plugin->api ? plugin->api->accepts : plugin->family->accepts;
      const bool accepted = accepts == nullptr || accepts(&c, &why) != 0;
      send("verdict", encode_accepts_answer({accepted, plugin_text(why.text)}));
    }
  }
  return 0;
}

}  // namespace kb
