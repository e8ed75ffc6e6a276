#include "kernel/kernel_build.hpp"

#include "kernel/nvrtc.hpp"
#include "kernel/ptx_entry.hpp"
#include "util/seconds_since.hpp"
#include "util/sha256.hpp"
#include "util/whole_file.hpp"

#include <boost/filesystem/operations.hpp>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#ifndef KBENCH_DEFAULT_CUDA_ARCH
#define KBENCH_DEFAULT_CUDA_ARCH "90"
#endif
#ifndef KBENCH_CUDA_INCLUDE_DIR
#define KBENCH_CUDA_INCLUDE_DIR "/usr/local/cuda/include"
#endif

namespace kb {
namespace fs = boost::filesystem;

namespace {

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

bool names_arch(const std::string& option) {
  return option.rfind("-arch", 0) == 0 || option.rfind("--gpu-architecture", 0) == 0;
}

// The files a source includes with quotes, from its folder (and theirs), each hashed with its
// path: an edited header makes a new key. Files not found there are the include path's (the
// toolkit's), which the versions in the key stand for.
void hash_includes(const std::string& text, const fs::path& folder, std::set<std::string>& seen,
                   std::string& digest, int depth) {
  if (depth > 8) return;
  for (std::size_t at = text.find("#include"); at != std::string::npos;
       at = text.find("#include", at + 8)) {
    std::size_t q = at + 8;
    while (q < text.size() && (text[q] == ' ' || text[q] == '\t')) ++q;
    if (q >= text.size() || text[q] != '"') continue;
    const std::size_t end = text.find('"', q + 1);
    if (end == std::string::npos) continue;
    const fs::path file = (folder / text.substr(q + 1, end - q - 1)).lexically_normal();
    boost::system::error_code error;
    if (!fs::is_regular_file(file, error) || !seen.insert(file.string()).second) continue;
    const std::string contents = read_whole_file(file.string()).value_or("");
    digest += file.string() + " " + sha256_hex(contents) + "\n";
    hash_includes(contents, file.parent_path(), seen, digest, depth + 1);
  }
}

// The options as a row shows them: the include folders are this machine's, not the kernel's.
std::string shown_options(const std::vector<std::string>& options) {
  std::vector<std::string> shown;
  for (const auto& option : options) {
    if (option.rfind("-I", 0) != 0) shown.push_back(option);
  }
  return joined(shown, " ");
}

// What the prelude gives the source, for the row: ", with typedef float T".
std::string prelude_text(const KernelVariant& variant) {
  std::string text;
  std::size_t at = 0;
  while (at < variant.prelude.size()) {
    const std::size_t end = std::min(variant.prelude.find('\n', at), variant.prelude.size());
    std::string line = variant.prelude.substr(at, end - at);
    if (!line.empty() && line.back() == ';') line.pop_back();
    if (!line.empty()) text += (text.empty() ? ", with " : ", ") + line;
    at = end + 1;
  }
  return text;
}

// The PTX's kernel `entry` held to the manifest's parameters.
void check_ptx(const KernelManifest& m, const std::string& ptx, const std::string& entry,
               const std::string& what) {
  const auto params = ptx_entry_params(ptx, entry);
  if (!params) {
    throw KernelBuildError("no kernel '" + entry + "' in the " + what + " (its kernels: " +
                           joined(ptx_entries(ptx), ", ") + ")");
  }
  const std::string mismatch = compare_params(m, *params, "in its " + what);
  if (!mismatch.empty()) throw KernelBuildError("parameters: " + mismatch);
}

}  // namespace

BuildTarget build_target(int device) {
  BuildTarget target;
  cudaDriverGetVersion(&target.driver_version);
  int count = 0;
  int major = 0, minor = 0;
  if (device >= 0 && cudaGetDeviceCount(&count) == cudaSuccess && device < count &&
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess) {
    target.arch = "sm_" + std::to_string(major * 10 + minor);
    target.device = true;
  } else {
    cudaGetLastError();
    target.arch = std::string("compute_") + KBENCH_DEFAULT_CUDA_ARCH;
  }
  return target;
}

std::vector<std::string> nvrtc_options(const KernelManifest& m, const KernelVariant& variant,
                                       const BuildTarget& target) {
  std::vector<std::string> options;
  bool arch_given = false;
  for (const auto& option : m.options) arch_given = arch_given || names_arch(option);
  if (!arch_given) options.push_back("-arch=" + target.arch);
  options.push_back("-std=c++17");
  options.push_back("-I" + fs::path(m.file).parent_path().string());
  std::string toolkit = KBENCH_CUDA_INCLUDE_DIR;
  boost::system::error_code error;
  if (const char* home = std::getenv("CUDA_HOME");
      home && *home && !fs::is_directory(toolkit, error)) {
    toolkit = std::string(home) + "/include";
  }
  options.push_back("-I" + toolkit);
  options.insert(options.end(), variant.options.begin(), variant.options.end());
  options.insert(options.end(), m.options.begin(), m.options.end());
  return options;
}

std::string cache_key(const KernelManifest& m, const KernelVariant& variant,
                      const std::vector<std::string>& options, const std::string& nvrtc_version,
                      int driver_version) {
  std::string includes;
  std::set<std::string> seen;
  hash_includes(m.contents, fs::path(m.file).parent_path(), seen, includes, 0);
  return sha256_hex("kbench kernel cache 1\nsource " + m.sha256 + "\n" + includes + "entry " +
                    variant.entry + "\nprelude " + variant.prelude + "\noptions " +
                    joined(options, "\n") + "\nnvrtc " +
                    nvrtc_version + "\ndriver " + std::to_string(driver_version) + "\n");
}

BuiltKernel build_kernel(const KernelManifest& m, const KernelVariant& variant,
                         const BuildTarget& target, const CodeCache& cache) {
  BuiltKernel built;
  if (m.format == KernelFormat::ptx) {
    built.ptx = m.contents;
    built.image = m.contents + '\0';
    built.entry = variant.entry;
    built.compiler = "ptx (JIT-compiled by the driver)";
    check_ptx(m, built.ptx, built.entry, "PTX");
    return built;
  }
  if (m.format != KernelFormat::source) {
    built.image = m.contents;
    built.entry = variant.entry;
    built.compiler = format_name(m.format);
    return built;
  }
  std::string why;
  const Nvrtc* nvrtc = Nvrtc::instance(&why);
  if (nvrtc == nullptr) throw KernelBuildError(why);
  const std::vector<std::string> options = nvrtc_options(m, variant, target);
  built.compiler = "nvrtc " + nvrtc->version() + " " + shown_options(options) + prelude_text(variant);
  const std::string key = cache_key(m, variant, options, nvrtc->version(), target.driver_version);
  if (const auto code = cache.find(key)) {
    built.entry = code->entry;
    built.ptx = code->ptx;
    built.image = !code->cubin.empty() ? code->cubin : code->ptx + '\0';
    built.cached = true;
  } else {
    const auto start = SteadyClock::now();
    // The prelude, then the file as it is: #line keeps the compiler's line numbers the file's.
    const std::string name = fs::path(m.file).filename().string();
    const std::string source = variant.prelude + "#line 1 \"" + name + "\"\n" + m.contents;
    const Nvrtc::Result result = nvrtc->compile(source, name, options, variant.entry);
    built.seconds = seconds_since(start);
    if (!result.ok) {
      throw KernelBuildError("compile error (" + built.compiler + "): " + first_errors(result.log));
    }
    built.entry = result.lowered;
    built.ptx = result.ptx;
    built.image = !result.cubin.empty() ? result.cubin : result.ptx + '\0';
    built.cache_note = cache.store(key, {result.lowered, result.ptx, result.cubin});
  }
  if (!built.ptx.empty()) check_ptx(m, built.ptx, built.entry, "compiled PTX");
  return built;
}

}  // namespace kb
