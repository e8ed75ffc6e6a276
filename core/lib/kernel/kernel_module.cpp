#include "kernel/kernel_module.hpp"

#include "kernel/nvrtc.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace kb {
namespace {

std::string cuda_text(cudaError_t error) {
  return std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
}

// The kernels a library holds, by name, for a message.
std::string kernel_names(cudaLibrary_t library) {
  unsigned count = 0;
  if (cudaLibraryGetKernelCount(&count, library) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return "none found";
  }
  std::vector<cudaKernel_t> kernels(count);
  if (cudaLibraryEnumerateKernels(kernels.data(), count, library) != cudaSuccess) {
    cudaGetLastError();
    return std::to_string(count) + " unnamed";
  }
  std::string names;
  for (cudaKernel_t k : kernels) {
    const char* name = nullptr;
    if (cudaFuncGetName(&name, reinterpret_cast<const void*>(k)) == cudaSuccess && name) {
      names += (names.empty() ? "" : ", ") + std::string(name);
    }
  }
  cudaGetLastError();
  return names;
}

}  // namespace

LoadedKernel::LoadedKernel(const KernelManifest& m, const BuiltKernel& built) {
  std::vector<char> error_log(8192, '\0');
  cudaJitOption options[] = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes};
  void* values[] = {error_log.data(),
                    reinterpret_cast<void*>(static_cast<std::uintptr_t>(error_log.size()))};
  const cudaError_t loaded = cudaLibraryLoadData(&library_, built.image.data(), options, values, 2,
                                                 nullptr, nullptr, 0);
  if (loaded != cudaSuccess) {
    cudaGetLastError();
    library_ = nullptr;
    const std::string log(error_log.data());
    throw KernelBuildError("cannot load the " + std::string(format_name(m.format)) + " (" +
                           cuda_text(loaded) + ")" + (log.empty() ? "" : ": " + first_errors(log)));
  }
  const auto fail = [&](const std::string& why) {
    cudaLibraryUnload(library_);
    library_ = nullptr;
    throw KernelBuildError(why);
  };
  for (std::size_t step = 0; step < built.entries.size(); ++step) {
    const std::string& entry = built.entries[step];
    const std::string prefix =
        built.entries.size() > 1 ? "launches[" + std::to_string(step) + "]: " : "";
    Kernel k;
    if (cudaLibraryGetKernel(&k.kernel, library_, entry.c_str()) != cudaSuccess) {
      cudaGetLastError();
      fail(prefix + "no kernel '" + entry + "' in the " + format_name(m.format) +
           " (its kernels: " + kernel_names(library_) + ")");
    }
    const void* function = reinterpret_cast<const void*>(k.kernel);
    cudaFuncAttributes attributes{};
    if (cudaFuncGetAttributes(&attributes, function) == cudaSuccess) {
      k.static_shared = static_cast<int>(attributes.sharedSizeBytes);
    }
    cudaGetLastError();
    // The parameters as the driver knows them: offset and size of each, until an index is past
    // the last. A driver that cannot tell leaves the check to the PTX or the cubin.
    std::vector<KernelParam> params;
    bool told = true;
    for (std::size_t i = 0; i < 4096; ++i) {
      std::size_t offset = 0, size = 0;
      const cudaError_t status = cudaFuncGetParamInfo(function, i, &offset, &size);
      if (status == cudaErrorInvalidValue) break;
      if (status != cudaSuccess) {
        told = false;
        break;
      }
      params.push_back({size, '?'});
    }
    cudaGetLastError();
    if (told) {
      const std::string mismatch = compare_params(m.launches[step], params, "as the driver reads it");
      if (!mismatch.empty()) fail(prefix + "parameters: " + mismatch);
    }
    kernels_.push_back(k);
  }
}

LoadedKernel::~LoadedKernel() {
  if (library_ != nullptr) cudaLibraryUnload(library_);
}

int max_shared_bytes(int device) {
  int bytes = 0;
  if (cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) !=
      cudaSuccess) {
    cudaGetLastError();
    cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlock, device);
  }
  return bytes;
}

std::uint64_t arch_max_shared_bytes(const std::string& arch) {
  const std::size_t digits = arch.find_first_of("0123456789");
  if (digits == std::string::npos) return 0;
  int cc = 0;
  try {
    cc = std::stoi(arch.substr(digits));
  } catch (const std::exception&) {
    return 0;
  }
  switch (cc) {
    case 70: case 72: return 96 * 1024;
    case 75: return 64 * 1024;
    case 80: case 87: return 163 * 1024;
    case 86: case 89: case 120: case 121: return 99 * 1024;
    case 90: case 100: case 101: case 103: case 110: return 227 * 1024;
    default: return 0;
  }
}

std::string fit_shared_memory(const LoadedKernel& kernel, std::size_t launch,
                              std::uint64_t dynamic_bytes, int device) {
  const std::uint64_t limit = static_cast<std::uint64_t>(max_shared_bytes(device));
  const std::uint64_t total =
      dynamic_bytes + static_cast<std::uint64_t>(kernel.static_shared_bytes(launch));
  if (limit > 0 && total > limit) {
    return "shared memory: " + std::to_string(dynamic_bytes) + " dynamic + " +
           std::to_string(kernel.static_shared_bytes(launch)) + " static bytes per block, above the "
           "device's limit of " + std::to_string(limit);
  }
  constexpr std::uint64_t kDefaultDynamicLimit = 48 * 1024;
  if (dynamic_bytes > kDefaultDynamicLimit) {
    const cudaError_t set = cudaFuncSetAttribute(kernel.function(launch),
                                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 static_cast<int>(dynamic_bytes));
    if (set != cudaSuccess) {
      cudaGetLastError();
      return "shared memory: " + std::to_string(dynamic_bytes) + " dynamic bytes refused (" +
             cuda_text(set) + ")";
    }
  }
  return "";
}

}  // namespace kb
