#include "kernel/kernel_build.hpp"

#include "kernel/cubin_image.hpp"
#include "kernel/driver_link.hpp"
#include "kernel/nvcc.hpp"
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

// "launches[1]: " where a case has several launches, "" where it has one.
std::string launch_text(const KernelManifest& m, std::size_t step) {
  return m.launches.size() > 1 ? "launches[" + std::to_string(step) + "]: " : "";
}

// Each launch's kernel in the PTX held to its parameters.
void check_ptx(const KernelManifest& m, const std::string& ptx,
               const std::vector<std::string>& entries, const std::string& what) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto params = ptx_entry_params(ptx, entries[i]);
    if (!params) {
      throw KernelBuildError("no kernel '" + entries[i] + "' in the " + what + " (its kernels: " +
                             joined(ptx_entries(ptx), ", ") + ")");
    }
    const std::string mismatch = compare_params(m.launches[i], *params, "in its " + what);
    if (!mismatch.empty()) throw KernelBuildError(launch_text(m, i) + "parameters: " + mismatch);
  }
}

// Each launch's kernel found in a cubin (by symbol, or by its name in the source) and held to its
// parameters as the cubin records them; the symbols. `pointees`: for nvcc's cubin, the device
// variables that point to a name expression's kernel ("" where the entry is a plain name).
std::vector<std::string> check_cubin(const KernelManifest& m, const std::string& cubin,
                                     const std::vector<std::string>& entries,
                                     const std::vector<std::string>& pointees) {
  const auto kernels = cubin_kernels(cubin);
  if (!kernels) throw KernelBuildError("not a cubin kbench can read (no 64-bit ELF)");
  std::vector<std::string> symbols;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    std::string symbol;
    std::string why;
    if (i < pointees.size() && !pointees[i].empty()) {
      symbol = cubin_pointee(cubin, pointees[i]);
      if (symbol.empty()) why = "no kernel for '" + entries[i] + "' in nvcc's cubin";
    } else {
      symbol = find_cubin_kernel(*kernels, entries[i], why);
    }
    if (symbol.empty()) throw KernelBuildError(launch_text(m, i) + why);
    for (const auto& k : *kernels) {
      if (k.symbol != symbol || !k.params_known) continue;
      const std::string mismatch = compare_params(m.launches[i], k.params, "in its cubin");
      if (!mismatch.empty()) throw KernelBuildError(launch_text(m, i) + "parameters: " + mismatch);
    }
    symbols.push_back(symbol);
  }
  return symbols;
}

bool templated(const std::string& entry) { return entry.find('<') != std::string::npos; }

// What nvcc compiles: the kernel file included as it is (its own folder for its quoted includes,
// its own line numbers), then, for each name expression, a device variable pointing to its
// kernel, which instantiates a template the file's host code does not and names the kernel's
// symbol in the cubin (its relocation).
std::string nvcc_source(const KernelManifest& m, const KernelVariant& variant) {
  std::string source = "#include \"" + m.file + "\"\n";
  for (std::size_t i = 0; i < variant.entries.size(); ++i) {
    if (!templated(variant.entries[i])) continue;
    source += "__device__ void* kbench_entry_" + std::to_string(i) + " = (void*)&" +
              variant.entries[i] + ";\n";
  }
  return source;
}

std::vector<std::string> nvcc_pointees(const KernelVariant& variant) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < variant.entries.size(); ++i) {
    names.push_back(templated(variant.entries[i]) ? "kbench_entry_" + std::to_string(i) : "");
  }
  return names;
}

std::string toolkit_include() {
  std::string toolkit = KBENCH_CUDA_INCLUDE_DIR;
  boost::system::error_code error;
  if (const char* home = std::getenv("CUDA_HOME");
      home && *home && !fs::is_directory(toolkit, error)) {
    toolkit = std::string(home) + "/include";
  }
  return toolkit;
}

// A compiled file's code: PTX, cubin or fatbin as it is, each launch's kernel found in it.
BuiltKernel file_kernel(const KernelManifest& m, const KernelVariant& variant) {
  BuiltKernel built;
  if (m.format == KernelFormat::ptx) {
    built.ptx = m.contents;
    built.image = m.contents + '\0';
    built.entries = variant.entries;
    built.compiler = "ptx (JIT-compiled by the driver)";
    check_ptx(m, built.ptx, built.entries, "PTX");
    return built;
  }
  built.image = m.contents;
  built.compiler = format_name(m.format);
  built.entries = m.format == KernelFormat::cubin ? check_cubin(m, m.contents, variant.entries, {})
                                                  : variant.entries;
  return built;
}

}  // namespace

const char* compiler_name(KernelCompiler compiler) {
  return compiler == KernelCompiler::nvcc ? "nvcc" : "nvrtc";
}

KernelCompiler choose_compiler(const KernelManifest& m) {
  std::string chosen = m.compiler;
  if (chosen == "auto") {
    if (const char* named = std::getenv("KBENCH_KERNEL_COMPILER"); named && *named) chosen = named;
  }
  if (chosen == "nvrtc") return KernelCompiler::nvrtc;
  std::string why;
  if (Nvcc::instance(&why) != nullptr) return KernelCompiler::nvcc;
  if (chosen == "nvcc") throw KernelBuildError(why);
  return KernelCompiler::nvrtc;
}

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

std::vector<std::string> compile_options(KernelCompiler compiler, const KernelManifest& m,
                                         const KernelVariant& variant, const BuildTarget& target) {
  std::vector<std::string> options;
  bool arch_given = false;
  for (const auto& option : m.options) arch_given = arch_given || names_arch(option);
  if (!arch_given) {
    // nvcc makes machine code, for the device's architecture or, without one, the build's.
    const bool virtual_arch = target.arch.rfind("compute_", 0) == 0;
    options.push_back("-arch=" + (compiler == KernelCompiler::nvcc && virtual_arch
                                      ? "sm_" + target.arch.substr(8)
                                      : target.arch));
  }
  options.push_back("-std=c++17");
  options.push_back("-I" + fs::path(m.file).parent_path().string());
  if (compiler == KernelCompiler::nvrtc) {
    // nvcc puts the toolkit's headers on its path itself, CCCL's (<cuda/...>, <cub/...>, which
    // <cooperative_groups.h> needs on CUDA 13) among them; NVRTC is given them.
    const std::string toolkit = toolkit_include();
    options.push_back("-I" + toolkit);
    boost::system::error_code error;
    if (fs::is_directory(toolkit + "/cccl", error)) options.push_back("-I" + toolkit + "/cccl");
  }
  options.insert(options.end(), variant.options.begin(), variant.options.end());
  options.insert(options.end(), m.options.begin(), m.options.end());
  return options;
}

std::string cache_key(const KernelManifest& m, const KernelVariant& variant,
                      const std::string& compiler, const std::vector<std::string>& options,
                      int driver_version) {
  std::string includes;
  std::set<std::string> seen;
  hash_includes(m.contents, fs::path(m.file).parent_path(), seen, includes, 0);
  return sha256_hex("kbench kernel cache 2\nsource " + m.sha256 + "\n" + includes + "entries " +
                    joined(variant.entries, "\n") + "\nprelude " + variant.prelude +
                    "\noptions " + joined(options, "\n") + "\ncompiler " + compiler +
                    "\ndriver " + std::to_string(driver_version) + "\n");
}

std::string variant_key(const KernelManifest& m, const KernelVariant& variant,
                        const BuildTarget& target) {
  std::string includes;
  std::set<std::string> seen;
  hash_includes(m.contents, fs::path(m.file).parent_path(), seen, includes, 0);
  return sha256_hex("kbench kernel variant 1\nsource " + m.sha256 + "\n" + includes + "key " +
                    variant.key() + "\narch " + target.arch + "\ndriver " +
                    std::to_string(target.driver_version) + "\n");
}

BuiltKernel build_kernel(const KernelManifest& m, const KernelVariant& variant,
                         const BuildTarget& target, const CodeCache& cache) {
  if (m.format != KernelFormat::source) return file_kernel(m, variant);
  const KernelCompiler compiler = choose_compiler(m);
  BuiltKernel built;
  std::string version;
  const Nvrtc* nvrtc = nullptr;
  const Nvcc* nvcc = nullptr;
  std::string why;
  if (compiler == KernelCompiler::nvcc) {
    nvcc = Nvcc::instance(&why);
    if (nvcc == nullptr) throw KernelBuildError(why);
    version = nvcc->version();
  } else {
    nvrtc = Nvrtc::instance(&why);
    if (nvrtc == nullptr) throw KernelBuildError(why);
    version = nvrtc->version();
  }
  std::vector<std::string> options = compile_options(compiler, m, variant, target);
  built.compiler = std::string(compiler_name(compiler)) + " " + version + " " +
                   (compiler == KernelCompiler::nvcc ? "-cubin " : "") + shown_options(options) +
                   prelude_text(variant);
  const std::string key = cache_key(m, variant, std::string(compiler_name(compiler)) + " " + version,
                                    options, target.driver_version);
  if (const auto code = cache.find(key); code && code->entries.size() == variant.entries.size()) {
    built.entries = code->entries;
    built.ptx = code->ptx;
    built.image = !code->cubin.empty() ? code->cubin : code->ptx + '\0';
    built.cached = true;
  } else {
    const auto start = SteadyClock::now();
    const std::string name = fs::path(m.file).filename().string();
    std::string cubin;  // machine code, where the compile made some (not PTX alone)
    if (compiler == KernelCompiler::nvcc) {
      const Nvcc::Result result = nvcc->compile(nvcc_source(m, variant), variant.prelude, options);
      built.seconds = seconds_since(start);
      if (!result.ok) {
        throw KernelBuildError("compile error (" + built.compiler + "): " + first_errors(result.log));
      }
      cubin = result.cubin;
      built.image = result.cubin;
      built.entries = check_cubin(m, result.cubin, variant.entries, nvcc_pointees(variant));
    } else {
      // The prelude, then the file as it is: #line keeps the compiler's line numbers the file's.
      const std::string source = variant.prelude + "#line 1 \"" + name + "\"\n" + m.contents;
      const Nvrtc::Result result = nvrtc->compile(source, name, options, variant.entries);
      built.seconds = seconds_since(start);
      if (!result.ok) {
        throw KernelBuildError("compile error (" + built.compiler + "): " + first_errors(result.log));
      }
      built.entries = result.lowered;
      built.ptx = result.ptx;
      cubin = result.cubin;
      built.image = !result.cubin.empty() ? result.cubin : result.ptx + '\0';
    }
    built.cache_note = cache.store(key, {built.entries, built.ptx, cubin, built.compiler});
  }
  if (!built.ptx.empty()) check_ptx(m, built.ptx, built.entries, "compiled PTX");
  if (compiler == KernelCompiler::nvcc && built.cached) {
    check_cubin(m, built.image, built.entries, {});
  }
  if (built.cache_note.empty()) built.cache_note = cache.mark_built(variant_key(m, variant, target), key);
  return built;
}

void compile_for_device(const KernelManifest& m, const KernelVariant& variant,
                        const BuildTarget& target, const CodeCache& cache, BuiltKernel& built) {
  if (!target.device || (m.format != KernelFormat::ptx && m.format != KernelFormat::fatbin)) return;
  const std::string key = sha256_hex("kbench driver jit 1\nfile " + m.sha256 + "\nentries " +
                                     joined(built.entries, "\n") + "\narch " + target.arch +
                                     "\ndriver " + std::to_string(target.driver_version) + "\n");
  std::string cubin;
  if (const auto code = cache.find(key)) {
    cubin = code->cubin;
  } else {
    LinkedCode linked = link_for_device(m.contents, m.format == KernelFormat::fatbin);
    if (linked.cubin.empty()) throw KernelBuildError(linked.error);
    cubin = std::move(linked.cubin);
  }
  built.compiler = std::string(format_name(m.format)) + " (compiled for " + target.arch +
                   " by the driver's JIT before the run)";
  built.image = cubin;
  built.cache_note = cache.store(key, {built.entries, built.ptx, cubin, built.compiler});
  if (built.cache_note.empty()) built.cache_note = cache.mark_built(variant_key(m, variant, target), key);
}

BuiltKernel load_built_kernel(const KernelManifest& m, const KernelVariant& variant,
                              const BuildTarget& target, const CodeCache& cache) {
  const bool jit = target.device && (m.format == KernelFormat::ptx || m.format == KernelFormat::fatbin);
  if (m.format != KernelFormat::source && !jit) return file_kernel(m, variant);
  const std::string key = cache.built(variant_key(m, variant, target));
  const auto code = key.empty() ? std::nullopt : cache.find(key);
  if (!code || code->entries.size() != variant.entries.size()) {
    throw KernelBuildError("its code for " + target.arch + " was not built before the run (not in "
                           "the cache " + (cache.dir().empty() ? std::string("(none)") : cache.dir()) +
                           "): the compile step builds every variant a run needs");
  }
  BuiltKernel built;
  built.entries = code->entries;
  built.ptx = code->ptx;
  built.image = !code->cubin.empty() ? code->cubin : code->ptx + '\0';
  built.compiler = code->compiler;
  built.cached = true;
  return built;
}

}  // namespace kb
