#include "kernel/nvrtc.hpp"

#include <nvrtc.h>

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <sstream>

#ifndef KBENCH_CUDA_MAJOR
#define KBENCH_CUDA_MAJOR 13
#endif
#ifndef KBENCH_CUDA_LIBRARY_DIR
#define KBENCH_CUDA_LIBRARY_DIR "/usr/local/cuda/lib64"
#endif

namespace kb {

// The entry points used, as nvrtc.h declares them.
struct Nvrtc::Api {
  decltype(&nvrtcVersion) version = nullptr;
  decltype(&nvrtcGetErrorString) error_string = nullptr;
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;
  decltype(&nvrtcAddNameExpression) add_name = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetLoweredName) lowered = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
};

namespace {

template <typename F>
bool bind(void* library, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(library, name));
  return f != nullptr;
}

std::vector<std::string> candidates() {
  std::vector<std::string> files;
  if (const char* named = std::getenv("KBENCH_NVRTC"); named && *named) files.push_back(named);
  const std::string major = std::to_string(KBENCH_CUDA_MAJOR);
  files.push_back("libnvrtc.so." + major);
  files.push_back(std::string(KBENCH_CUDA_LIBRARY_DIR) + "/libnvrtc.so." + major);
  if (const char* home = std::getenv("CUDA_HOME"); home && *home) {
    files.push_back(std::string(home) + "/lib64/libnvrtc.so." + major);
  }
  files.push_back("libnvrtc.so");
  return files;
}

}  // namespace

const Nvrtc* Nvrtc::instance(std::string* why) {
  static std::once_flag once;
  static Nvrtc* loaded = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    std::string tried;
    void* library = nullptr;
    for (const auto& file : candidates()) {
      library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (library != nullptr) break;
      tried += (tried.empty() ? "" : ", ") + file;
    }
    if (library == nullptr) {
      failure = "NVRTC (the CUDA toolkit's libnvrtc) not found: tried " + tried +
                "; set KBENCH_NVRTC to the library, or give the kernel as PTX or cubin";
      return;
    }
    static Api api;
    const bool complete =
        bind(library, "nvrtcVersion", api.version) &&
        bind(library, "nvrtcGetErrorString", api.error_string) &&
        bind(library, "nvrtcCreateProgram", api.create) &&
        bind(library, "nvrtcDestroyProgram", api.destroy) &&
        bind(library, "nvrtcAddNameExpression", api.add_name) &&
        bind(library, "nvrtcCompileProgram", api.compile) &&
        bind(library, "nvrtcGetLoweredName", api.lowered) &&
        bind(library, "nvrtcGetProgramLogSize", api.log_size) &&
        bind(library, "nvrtcGetProgramLog", api.log) &&
        bind(library, "nvrtcGetPTXSize", api.ptx_size) && bind(library, "nvrtcGetPTX", api.ptx) &&
        bind(library, "nvrtcGetCUBINSize", api.cubin_size) &&
        bind(library, "nvrtcGetCUBIN", api.cubin);
    if (!complete) {
      failure = "NVRTC found, but it lacks an entry point kbench uses (CUDA 11.1 or later needed)";
      return;
    }
    int major = 0, minor = 0;
    api.version(&major, &minor);
    loaded = new Nvrtc();
    loaded->api_ = &api;
    loaded->version_ = std::to_string(major) + "." + std::to_string(minor);
  });
  if (loaded == nullptr && why != nullptr) *why = failure;
  return loaded;
}

Nvrtc::Result Nvrtc::compile(const std::string& source, const std::string& name,
                             const std::vector<std::string>& options,
                             const std::vector<std::string>& expressions) const {
  Result result;
  nvrtcProgram program = nullptr;
  if (nvrtcResult r = api_->create(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr);
      r != NVRTC_SUCCESS) {
    result.log = std::string("nvrtcCreateProgram: ") + api_->error_string(r);
    return result;
  }
  for (const auto& expression : expressions) api_->add_name(program, expression.c_str());
  std::vector<const char*> argv;
  for (const auto& option : options) argv.push_back(option.c_str());
  const nvrtcResult compiled =
      api_->compile(program, static_cast<int>(argv.size()), argv.empty() ? nullptr : argv.data());
  std::size_t size = 0;
  if (api_->log_size(program, &size) == NVRTC_SUCCESS && size > 1) {
    result.log.resize(size);
    api_->log(program, &result.log[0]);
    result.log.resize(size - 1);
  }
  if (compiled != NVRTC_SUCCESS) {
    if (result.log.empty()) result.log = api_->error_string(compiled);
    api_->destroy(&program);
    return result;
  }
  std::string missing;
  for (const auto& expression : expressions) {
    const char* lowered = nullptr;
    if (api_->lowered(program, expression.c_str(), &lowered) == NVRTC_SUCCESS && lowered) {
      result.lowered.push_back(lowered);
    } else if (missing.empty()) {
      missing = expression;
    }
  }
  if (api_->ptx_size(program, &size) == NVRTC_SUCCESS && size > 0) {
    result.ptx.resize(size);
    api_->ptx(program, &result.ptx[0]);
    if (!result.ptx.empty() && result.ptx.back() == '\0') result.ptx.pop_back();
  }
  if (api_->cubin_size(program, &size) == NVRTC_SUCCESS && size > 0) {
    result.cubin.resize(size);
    api_->cubin(program, &result.cubin[0]);
  }
  api_->destroy(&program);
  result.ok = missing.empty();
  if (!result.ok) {
    result.log = "'" + missing + "' names no __global__ function of the source" +
                 (result.log.empty() ? "" : ": " + result.log);
  }
  return result;
}

std::string first_errors(const std::string& log, std::size_t lines) {
  std::istringstream in(log);
  std::vector<std::string> errors, others;
  std::size_t count = 0;
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line.find("detected in the compilation of") != std::string::npos) continue;
    if (line.find("error") != std::string::npos) {
      ++count;
      if (errors.size() < lines) errors.push_back(line);
    } else if (others.size() < lines) {
      others.push_back(line);
    }
  }
  const auto& chosen = errors.empty() ? others : errors;
  std::string text;
  for (const auto& line : chosen) text += (text.empty() ? "" : "; ") + line;
  if (count > errors.size()) text += " (" + std::to_string(count) + " errors)";
  return text.empty() ? "no message" : text;
}

}  // namespace kb
