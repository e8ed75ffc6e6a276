#include "kernel/driver_link.hpp"

#include "kernel/nvrtc.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace kb {
namespace {

struct LinkApi {
  decltype(&cuLinkCreate) create = nullptr;
  decltype(&cuLinkAddData) add = nullptr;
  decltype(&cuLinkComplete) complete = nullptr;
  decltype(&cuLinkDestroy) destroy = nullptr;
};

template <typename F>
bool entry_point(const char* name, F& f) {
  void* pointer = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &pointer, 12000, cudaEnableDefault, &found) !=
          cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return false;
  }
  f = reinterpret_cast<F>(pointer);
  return true;
}

}  // namespace

LinkedCode link_for_device(const std::string& image, bool fatbin) {
  LinkedCode result;
  LinkApi api;
  if (!entry_point("cuLinkCreate", api.create) || !entry_point("cuLinkAddData", api.add) ||
      !entry_point("cuLinkComplete", api.complete) || !entry_point("cuLinkDestroy", api.destroy)) {
    result.error = "the driver offers no JIT linker (cuLinkCreate)";
    return result;
  }
  std::vector<char> log(8192, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(log.size()))};
  CUlinkState state = nullptr;
  if (api.create(2, options, values, &state) != CUDA_SUCCESS) {
    result.error = "cuLinkCreate failed";
    return result;
  }
  std::string data = fatbin ? image : image + '\0';
  const CUresult added = api.add(state, fatbin ? CU_JIT_INPUT_FATBINARY : CU_JIT_INPUT_PTX,
                                 data.data(), data.size(), "kernel", 0, nullptr, nullptr);
  void* cubin = nullptr;
  std::size_t size = 0;
  if (added == CUDA_SUCCESS && api.complete(state, &cubin, &size) == CUDA_SUCCESS && cubin) {
    result.cubin.assign(static_cast<const char*>(cubin), size);
  } else {
    const std::string text(log.data());
    result.error = std::string("the driver's JIT could not compile it for this device") +
                   (text.empty() ? "" : ": " + first_errors(text));
  }
  api.destroy(state);
  return result;
}

}  // namespace kb
