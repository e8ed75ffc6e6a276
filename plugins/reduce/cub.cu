// NVIDIA's library reduction, cub::DeviceReduce: Sum for sum, TransformReduce with a squaring
// transform for sumsq, both into Result<T> (int32 accumulates in int64 here too). The 16- and
// 8-bit types sum through TransformReduce with a conversion to Result<T> (float32, int64), so
// CUB accumulates in that type and not in the input's. Its temporary
// storage is sized and allocated in setup; launch only enqueues. It chooses its own launch shape;
// its summation order is not ours to know, so it is checked with the bound that holds for any
// order (depth n - 1).
#include <kbench/families/reduce.hpp>

#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cstddef>

namespace {

using namespace kb::reduce;

template <typename T>
struct ConvertTo {
  __device__ Result<T> operator()(T x) const { return static_cast<Result<T>>(x); }
};

template <typename T>
struct SquareAs {
  __device__ Result<T> operator()(T x) const {
    const auto a = static_cast<Result<T>>(x);
    return a * a;
  }
};

// With temp == nullptr: only writes the bytes it needs to temp_bytes.
template <typename T>
cudaError_t device_reduce(const Operands<T>& p, void* temp, std::size_t& temp_bytes,
                          cudaStream_t stream) {
  if (p.op == Op::sum) {
    if constexpr (sizeof(T) >= 4) {
      return cub::DeviceReduce::Sum(temp, temp_bytes, p.in(), p.out(), p.n, stream);
    } else {
      return cub::DeviceReduce::TransformReduce(temp, temp_bytes, p.in(), p.out(), p.n,
                                                cuda::std::plus<>{}, ConvertTo<T>{},
                                                Result<T>{0}, stream);
    }
  }
  return cub::DeviceReduce::TransformReduce(temp, temp_bytes, p.in(), p.out(), p.n,
                                            cuda::std::plus<>{}, SquareAs<T>{}, Result<T>{0},
                                            stream);
}

template <typename T>
std::size_t temp_bytes_for(const Operands<T>& p) {
  std::size_t bytes = 0;
  KB_CUDA_CHECK(device_reduce(p, nullptr, bytes, nullptr));
  return bytes;
}

template <typename T>
struct Cub {
  explicit Cub(const Operands<T>& p)
      : temp_bytes(temp_bytes_for(p)), temp(KB_DEVICE_CUDA, std::max<std::size_t>(temp_bytes, 1)) {}

  void launch(const Operands<T>& p, kb::Launcher& launch) {
    std::size_t bytes = temp_bytes;
    KB_CUDA_CHECK(device_reduce(p, temp.data(), bytes, launch.stream()));
    launch.record_library_call();
  }

  const std::size_t temp_bytes;
  kb::Array<unsigned char> temp;
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, Cub, kb::reduce::DTypesOfAnySize,
                {.name = "reduce/cub",
                 .version = "2",
                 .description = "cub::DeviceReduce::Sum / TransformReduce (squares)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT,
                 .ops = kb::reduce::kOps})
