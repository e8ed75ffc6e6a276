// The scan family, from outside kbench: out[i] = in[0] + ... + in[i] (inclusive prefix sum) over
// n int32. kbench knows nothing of it: this header describes the family (family_descriptor,
// found by the SDK's adapter), and holds its inputs, its reference and its check, so each
// strategy file is its kernels and their launch.
#pragma once

#include <kbench/plugin.hpp>

#include <cstdint>
#include <vector>

namespace scan {

inline const kb_family* family_descriptor(const void*) {
  static constexpr kb_family kFamily = {
      "scan", 1, "n", "2^20,2^24", "256", "int32",
      // Odd sizes, so partial tiles are exercised; two blocks.
      "1000,4097", "128,256", "gbps", "scan/cub"};
  return &kFamily;
}

template <typename T>
class Problem {
 public:
  Problem(const kb_case& c, kb_device_kind where, kb_work& work)
      : n(c.shape[0]),
        block(c.block[0]),
        host_in_(kb::random_vector<T>(static_cast<std::size_t>(n), c.seed, 1)),
        in_(where, host_in_.size()),
        out_(where, host_in_.size()) {
    in_.upload(host_in_);
    work.bytes = 2.0 * static_cast<double>(in_.bytes());
    work.flops = static_cast<double>(n);
  }

  const std::int64_t n;
  const int block;  // threads per block as the case asks; 0 for plugins that choose their own

  const T* in() const noexcept { return in_.data(); }
  T* out() const noexcept { return const_cast<T*>(out_.data()); }
  const kb::HostVector<T>& host_in() const noexcept { return host_in_; }

  void poison(cudaStream_t stream) { out_.poison(stream); }

  // Integers: the sums are exact, so every plugin must match the sequential reference bit for bit.
  kb_verification verify() const {
    std::vector<T> reference(host_in_.size());
    T sum = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) reference[i] = sum += host_in_[i];
    return kb::compare_exact(out_, reference.data());
  }

 private:
  kb::HostVector<T> host_in_;
  kb::Array<T> in_, out_;
};

}  // namespace scan
