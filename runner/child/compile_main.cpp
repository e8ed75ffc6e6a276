// `kbench compile`: the child that compiles kernel files before a run. It runs no plugin code
// (the family is described to it, never loaded), so nothing a plugin did can reach the compilers
// or the code they write; it is confined like the probe, and may write beneath the compiled-code
// cache alone. Answers each `kernel` record with `built` (a summary, the cases whose launch cannot
// be formed) or `refused` (why), saying each variant built (`step`) as it goes. The workers that
// time the kernels then only load the code it left in the cache.
#include "child/child_commands.hpp"
#include "device/device_info.hpp"
#include "kernel/kernel_strategy.hpp"
#include "plugin/kernel_manifest.hpp"
#include "protocol/child_answers.hpp"
#include "protocol/codec.hpp"
#include "protocol/kernel_request.hpp"
#include "protocol/sandbox.hpp"
#include "protocol/sequence.hpp"
#include "util/input_error.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>


namespace kb {
namespace {

constexpr int kAnswersFd = 3;
std::uint64_t g_sequence = 0;

void send(const std::string& kind, Record record) {
  set_sequence(record, g_sequence);
  if (!write_text(kAnswersFd, encode_record(kind, record))) _exit(0);  // the parent is gone
}

void compile_kernel(const Record& fields) {
  try {
    const KernelFileRequest request = decode_kernel_request(fields);
    const std::string& file = request.file;
    auto manifest = read_kernel_manifest(file, request.strategy);
    if (manifest.sha256 != request.sha256) {
      throw InputError(file + ": the file changed since kbench read it");
    }
    if (!request.family) throw InputError(file + ": no description of its family");
    bind_to_family(manifest, *request.family);
    KernelCheck check;
    try {
      check = check_kernel_file(manifest, request.cases, request.device,
                                CodeCache(kernel_cache_dir()),
                                [](const std::string& what) { send("step", encode_step(what)); });
    } catch (const KernelBuildError& e) {
      throw InputError(file + ": " + e.what());
    }
    send("built", encode_built(KernelCheckAnswer{check.summary, check.unsupported}));
  } catch (const std::exception& e) {
    send("refused", encode_reason(e.what()));
  }
}

}  // namespace

int compile_command(const std::vector<std::string>&) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (const int null = open("/dev/null", O_WRONLY); null >= 0) dup2(null, 1), close(null);
  // The driver's JIT (PTX or a fatbin to a cubin) needs a context, which a confined process cannot
  // create: each device's is made before. The compilers write beneath the cache folder (made by
  // the parent where it was missing) and in the process's own temporary folder.
  for (int device = 0, count = cuda_device_count(nullptr); device < count; ++device) {
    try {
      open_device(device);
    } catch (const std::exception&) {
      // A device that cannot be opened: its kernel files say so when they are built for it.
    }
  }
  enter_sandbox({kernel_cache_dir()});
  LineReader input(0);
  std::string line, kind;
  Record fields;
  while (input.read_line(line, -1) == LineReader::Status::line) {
    if (!decode_record(line, kind, fields) || kind != "kernel") continue;
    g_sequence = take_sequence(fields).value_or(0);
    compile_kernel(fields);
  }
  return 0;
}

}  // namespace kb
