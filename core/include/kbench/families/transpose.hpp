// The transpose family: out (cols x rows) = transpose of in (rows x cols), both row-major.
// Shape {rows, cols}; the block shape is the strategy's to interpret (threads per block, or a
// tile). Transpose moves bits, so the output is compared exactly.
#pragma once

#include <kbench/plugin.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

namespace kb::transpose {

// The family as the runner sees it (kb_family): held against a copy of the same bytes.
inline const kb_family* family_descriptor(const void*) {
  static constexpr kb_family kFamily = {
      "transpose", 2, "rows,cols", "2048,8192,8192x4096", "32x8,16x16,32x32", "float32,float64",
      // Odd sizes, so partial tiles are exercised; several blocks, so a plugin that accepts only
      // some shapes still gets a case.
      "33x31", "16x16,32x8,32x32", "gbps", "transpose/copy"};
  return &kFamily;
}

// out[c * rows + r] = in[r * cols + c], on the host: the reference every plugin is checked against.
template <typename T>
void reference(const T* in, T* out, std::int64_t rows, std::int64_t cols);

// Elements [first, first + count) of a transposed output, `out` pointing at element `first`,
// compared bit for bit with the transpose of `in` without writing it out: the check of every
// plugin, on a downloaded chunk at a time.
template <typename T>
kb_verification compare_transposed(const T* out, std::size_t first, std::size_t count, const T* in,
                                   std::int64_t rows, std::int64_t cols);

template <typename T>
class Problem {
 public:
  Problem(const kb_case& c, kb_device_kind where, kb_work& work)
      : rows(c.shape[0]),
        cols(c.shape[1]),
        block(static_cast<unsigned>(c.block[0]), static_cast<unsigned>(c.block[1]),
              static_cast<unsigned>(c.block[2] > 0 ? c.block[2] : 1)),
        // Consecutive cases that differ in the block alone share their input.
        host_in_(memoized<HostVector<T>>(
            memo_key("transpose/input", dtype_of<T>(), rows, cols, c.seed, kStream, kLow, kHigh),
            [&] { return make_input(c); })),
        in_(where, host_in_->size()),
        out_(where, host_in_->size()) {
    in_.upload(*host_in_);
    work.bytes = 2.0 * static_cast<double>(in_.bytes());
    work.flops = 0.0;
  }

  const std::int64_t rows;
  const std::int64_t cols;
  const dim3 block;  // from the case; {0,0,1} for plugins that choose their own

  const T* in() const noexcept { return in_.data(); }
  T* out() const noexcept { return const_cast<T*>(out_.data()); }
  std::size_t count() const noexcept { return host_in_->size(); }

  void poison(cudaStream_t stream) { out_.poison(stream); }

  kb_verification verify() const {
    const T* in = host_in_->data();
    return compare_in_chunks(out_, [=](const T* chunk, std::size_t first, std::size_t count) {
      return compare_transposed(chunk, first, count, in, rows, cols);
    });
  }

  // For transpose/copy, the ceiling the family is measured against: the output must be the input,
  // byte for byte, untransposed.
  kb_verification verify_copy() const {
    return compare_exact(out_, host_in_->data());
  }

 private:
  // Integers over the whole range, so a misplaced element is always noticed.
  static constexpr std::uint64_t kStream = 1;
  static constexpr std::int64_t kLow = std::numeric_limits<std::int32_t>::min();
  static constexpr std::int64_t kHigh = std::numeric_limits<std::int32_t>::max();

  static HostVector<T> make_input(const kb_case& c) {
    const auto count = static_cast<std::size_t>(c.shape[0] * c.shape[1]);
    return random_vector<T>(count, c.seed, kStream, kLow, kHigh);
  }

  std::shared_ptr<const HostVector<T>> host_in_;
  Array<T> in_;
  Array<T> out_;
};

// Acceptance rules the strategies share. Each also refuses a case whose grid would need more
// than 65535 blocks in y (CUDA's limit), so such a case is reported unsupported, not an error.

// Any 2D block; one thread per element (naive_row, naive_col).
int accepts_any_2d_block(const kb_case* c, kb_message* why);
// A square block of at most 32x32; the tile is the block (shared, shared_padded,
// shared_swapped_index).
int accepts_square_block_up_to_32(const kb_case* c, kb_message* why);
// A 32x32 tile moved by a 32xY block, Y a power of two up to 32, so each thread moves 32/Y
// elements (tiled_coarse; 32x8 is the classic).
int accepts_32_wide_block(const kb_case* c, kb_message* why);

}  // namespace kb::transpose
