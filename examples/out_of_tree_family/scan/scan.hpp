// The scan family, from outside kbench: out[i] = in[0] + ... + in[i] (inclusive prefix sum) over
// n int32. kbench knows nothing of it. This header is what the family's library (family.cu, the
// referee) and its strategies share: the family's description and the view a strategy computes
// on. The inputs, the reference and the check live in family.cu alone, which no strategy links.
#pragma once

#include <kbench/plugin.hpp>

#include <cstdint>

namespace scan {

// The family as the runner sees it (kb_family), given by the family's library (family.cu).
inline const kb_family* descriptor() {
  static constexpr kb_family kFamily = {
      .name = "scan",
      .rank = 1,
      .shape_names = "n",
      .default_sizes = "2^20,2^24",
      .default_blocks = "256",
      .default_dtypes = "int32",
      // Odd sizes, so partial tiles are exercised; two blocks.
      .check_sizes = "1000,4097",
      .check_blocks = "128,256",
      .headline = "gbps",
      .reference = "scan/cub"};
  return &kFamily;
}

// What a strategy computes on (ABI version 3: the family's buffers). inputs[0] is `in`, n
// elements of T, read-only; outputs[0] is `out`, n elements of T, which every launch writes in
// full: out[i] = in[0] + ... + in[i].
template <typename T>
class Operands {
 public:
  Operands(const kb_case& c, const kb_buffers& b)
      : n(c.shape[0]),
        block(c.block[0]),
        in_(static_cast<const T*>(b.inputs[0].data)),
        out_(static_cast<T*>(b.outputs[0].data)) {}

  const std::int64_t n;
  const int block;  // threads per block as the case asks; 0 for strategies that choose their own

  const T* in() const noexcept { return in_; }
  T* out() const noexcept { return out_; }

 private:
  const T* in_;
  T* out_;
};

}  // namespace scan
