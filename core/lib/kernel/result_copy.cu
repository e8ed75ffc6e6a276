#include "kernel/result_copy.hpp"

#include "case/case_spec.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>

namespace kb {
namespace {

template <typename From, typename To>
__global__ void widen(const From* from, To* to, std::uint64_t count) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    to[i] = static_cast<To>(from[i]);
  }
}

template <typename From, typename To>
std::string launch_widen(const void* from, void* to, std::uint64_t count, cudaStream_t stream) {
  constexpr unsigned kThreads = 256;
  const auto blocks = static_cast<unsigned>(std::min<std::uint64_t>((count + kThreads - 1) / kThreads, 1024));
  widen<From, To><<<blocks, kThreads, 0, stream>>>(static_cast<const From*>(from),
                                                   static_cast<To*>(to), count);
  const cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? "" : std::string("widening the result: ") + cudaGetErrorString(e);
}

}  // namespace

bool result_copy_allowed(kb_dtype from, kb_dtype to) {
  if (from == to) return true;
  return (from == KB_DTYPE_I32 && to == KB_DTYPE_I64) || (from == KB_DTYPE_I8 && to == KB_DTYPE_I32) ||
         (from == KB_DTYPE_I8 && to == KB_DTYPE_I64) || (from == KB_DTYPE_F32 && to == KB_DTYPE_F64) ||
         (from == KB_DTYPE_F16 && to == KB_DTYPE_F32) || (from == KB_DTYPE_BF16 && to == KB_DTYPE_F32);
}

std::string copy_result(const void* from, kb_dtype from_type, void* to, kb_dtype to_type,
                        std::uint64_t count, cudaStream_t stream) {
  if (count == 0) return "";
  if (from_type == to_type) {
    const cudaError_t e = cudaMemcpyAsync(to, from, count * dtype_bytes(to_type),
                                          cudaMemcpyDeviceToDevice, stream);
    return e == cudaSuccess ? "" : std::string("copying the result: ") + cudaGetErrorString(e);
  }
  if (from_type == KB_DTYPE_I32 && to_type == KB_DTYPE_I64) return launch_widen<int, long long>(from, to, count, stream);
  if (from_type == KB_DTYPE_I8 && to_type == KB_DTYPE_I32) return launch_widen<signed char, int>(from, to, count, stream);
  if (from_type == KB_DTYPE_I8 && to_type == KB_DTYPE_I64) return launch_widen<signed char, long long>(from, to, count, stream);
  if (from_type == KB_DTYPE_F32 && to_type == KB_DTYPE_F64) return launch_widen<float, double>(from, to, count, stream);
  if (from_type == KB_DTYPE_F16 && to_type == KB_DTYPE_F32) return launch_widen<__half, float>(from, to, count, stream);
  if (from_type == KB_DTYPE_BF16 && to_type == KB_DTYPE_F32) return launch_widen<__nv_bfloat16, float>(from, to, count, stream);
  return "the result's elements cannot become the family's";
}

}  // namespace kb
