// scan/cub: cub::DeviceScan::InclusiveSum, the vendor baseline the family is measured against
// (its description names it as the reference). Its scratch space is its own, allocated when the
// case is prepared (sized by CUB's query, which computes nothing).
#include "scan.hpp"

#include <cub/device/device_scan.cuh>

namespace {

template <typename T>
struct Cub {
  explicit Cub(const scan::Operands<T>& p) : scratch(KB_DEVICE_CUDA, scratch_bytes(p)) {}

  static std::size_t scratch_bytes(const scan::Operands<T>& p) {
    std::size_t bytes = 0;
    KB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, p.in(), p.out(), p.n));
    return bytes;
  }

  void launch(const scan::Operands<T>& p, kb::Launcher& launch) {
    std::size_t bytes = scratch.bytes();
    KB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch.data(), bytes, p.in(), p.out(), p.n,
                                                launch.stream()));
    launch.record_library_call();
  }

  kb::Array<unsigned char> scratch;
};

}  // namespace

KBENCH_STRATEGY(scan::Operands, Cub, kb::DTypes<std::int32_t>,
                {.name = "scan/cub",
                 .version = "1",
                 .description = "cub::DeviceScan::InclusiveSum",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT})
