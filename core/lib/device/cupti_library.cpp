#include "device/cupti_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

#if KBENCH_HAVE_CUPTI
#include <cupti_version.h>
#endif

#ifndef KBENCH_CUDA_LIBRARY_DIR
#define KBENCH_CUDA_LIBRARY_DIR ""
#endif

namespace kb {
namespace {

// The API version kbench's record layouts and parameter structures come from (cupti_version.h):
// an older library lays them out otherwise.
#if KBENCH_HAVE_CUPTI
constexpr unsigned kBuiltVersion = CUPTI_API_VERSION;
#else
constexpr unsigned kBuiltVersion = 0;
#endif
// CUDA 13's CUPTI numbers its API 130000 and up; CUDA 12's was 17 to 24, with other records.
constexpr unsigned kFirstCompatibleVersion = 130000;

using GetVersion = int (*)(unsigned*);
using GetResultString = int (*)(int, const char**);

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

}  // namespace

std::vector<std::string> cupti_candidates(const char* configured, const char* cuda_home) {
  if (configured != nullptr) {
    if (std::strcmp(configured, "none") == 0) return {};
    return {configured};
  }
  std::vector<std::string> candidates = {"libcupti.so.13", "libcupti.so"};
  std::vector<std::string> roots;
  if (std::strlen(KBENCH_CUDA_LIBRARY_DIR) > 0) {
    candidates.push_back(std::string(KBENCH_CUDA_LIBRARY_DIR) + "/libcupti.so");
    roots.push_back(folder_of(KBENCH_CUDA_LIBRARY_DIR));
  }
  if (cuda_home != nullptr && *cuda_home != '\0') roots.push_back(cuda_home);
  roots.push_back("/usr/local/cuda");
  for (const auto& root : roots) {
    for (const char* folder : {"/lib64/", "/extras/CUPTI/lib64/", "/lib/"}) {
      candidates.push_back(root + folder + "libcupti.so");
    }
  }
  return candidates;
}

std::string why_unusable(const CuptiLibrary& library) {
  if (!library.loaded()) return library.why_not();
  const char* injection = std::getenv("CUDA_INJECTION64_PATH");
  if (injection == nullptr || *injection == '\0') return "";
  return std::string("a profiling tool is attached (CUDA_INJECTION64_PATH=") + injection + ")";
}

const CuptiLibrary& CuptiLibrary::get() {
  static const CuptiLibrary library(
      cupti_candidates(std::getenv("KBENCH_CUPTI_LIBRARY"), std::getenv("CUDA_HOME")));
  return library;
}

// Never closed: CUPTI hooks the driver for the life of the process.
CuptiLibrary::~CuptiLibrary() = default;

CuptiLibrary::CuptiLibrary(const std::vector<std::string>& candidates) {
  if (kBuiltVersion == 0) {
    why_not_ = "kbench was built without the CUPTI headers";
    return;
  }
  if (candidates.empty()) {
    why_not_ = "KBENCH_CUPTI_LIBRARY is 'none'";
    return;
  }
  std::string first_error;
  for (const auto& candidate : candidates) {
    handle_ = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ != nullptr) {
      path_ = candidate;
      break;
    }
    const char* error = dlerror();
    if (first_error.empty() && error != nullptr) first_error = error;
  }
  if (handle_ == nullptr) {
    why_not_ = "cannot load libcupti.so, the CUDA toolkit's (KBENCH_CUPTI_LIBRARY names it): " +
               first_error;
    return;
  }
  // The file the loader found, for its neighbours.
  if (void* any = dlsym(handle_, "cuptiGetVersion")) {
    Dl_info info{};
    if (dladdr(any, &info) != 0 && info.dli_fname != nullptr) path_ = info.dli_fname;
  }
  const auto get_version = function<GetVersion>("cuptiGetVersion");
  if (get_version == nullptr || get_version(&version_) != 0) {
    why_not_ = path_ + " does not say its version";
  } else if (version_ < kFirstCompatibleVersion) {
    why_not_ = path_ + " is CUPTI API version " + std::to_string(version_) + ", older than the " +
               std::to_string(kBuiltVersion) + " kbench was built with";
  }
  if (!why_not_.empty()) {
    dlclose(handle_);
    handle_ = nullptr;
  }
}

void* CuptiLibrary::symbol(const char* name) const {
  return handle_ == nullptr ? nullptr : dlsym(handle_, name);
}

std::string CuptiLibrary::result_text(int result) const {
  const auto describe = function<GetResultString>("cuptiGetResultString");
  const char* text = nullptr;
  if (describe != nullptr && describe(result, &text) == 0 && text != nullptr) return text;
  return "CUPTI error " + std::to_string(result);
}

bool CuptiLibrary::load_beside(const char* file) const {
  if (handle_ == nullptr) return false;
  const std::string folder = folder_of(path_);
  // Already loaded, or on the loader's path: CUPTI finds it by name itself.
  if (dlopen(file, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD) != nullptr) return true;
  if (!folder.empty() && dlopen((folder + "/" + file).c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr) {
    return true;
  }
  return dlopen(file, RTLD_NOW | RTLD_GLOBAL) != nullptr;
}

}  // namespace kb
