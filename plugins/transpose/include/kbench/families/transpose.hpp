// The transpose family: out (cols x rows) = transpose of in (rows x cols), both row-major.
// Shape {rows, cols}; the block shape is the strategy's to interpret (threads per block, or a
// tile). Operands: inputs[0] is `in`, outputs[0] is `out`, both rows * cols elements of the case's
// data type. Transpose moves bits, so the family's referee (plugins/transpose/family.cu) compares
// the output exactly, on the device, against values it regenerates from the seed.
#pragma once

#include <kbench/plugin.hpp>

#include <cstdint>
#include <limits>

namespace kb::transpose {

// The family as the runner sees it (kb_family): held against a copy of the same bytes.
inline const kb_family* descriptor() {
  static constexpr kb_family kFamily = {
      .name = "transpose",
      .rank = 2,
      .shape_names = "rows,cols",
      .default_sizes = "2048,8192,8192x4096",
      .default_blocks = "32x8,16x16,32x32",
      .default_dtypes = "float32,float64",
      // Odd sizes, so partial tiles are exercised; several blocks, so a plugin that accepts only
      // some shapes still gets a case.
      .check_sizes = "33x31",
      .check_blocks = "16x16,32x8,32x32",
      .headline = "gbps",
      .reference = "transpose/copy"};
  return &kFamily;
}

// Inputs: integers over the whole int32 range, as T's bits, so a misplaced element always shows.
constexpr std::uint64_t kInputStream = 1;
constexpr std::int64_t kLow = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kHigh = std::numeric_limits<std::int32_t>::max();

// What a strategy computes on: the family's buffers and the case's extents.
template <typename T>
class Operands {
 public:
  Operands(const kb_case& c, const kb_buffers& b)
      : rows(c.shape[0]),
        cols(c.shape[1]),
        block(static_cast<unsigned>(c.block[0]), static_cast<unsigned>(c.block[1]),
              static_cast<unsigned>(c.block[2] > 0 ? c.block[2] : 1)),
        in_(static_cast<const T*>(b.inputs[0].data)),
        out_(static_cast<T*>(b.outputs[0].data)) {}

  const std::int64_t rows;
  const std::int64_t cols;
  const dim3 block;  // from the case; {0,0,1} for plugins that choose their own

  const T* in() const noexcept { return in_; }
  T* out() const noexcept { return out_; }
  std::size_t count() const noexcept { return static_cast<std::size_t>(rows * cols); }

 private:
  const T* in_;
  T* out_;
};

// out[c * rows + r] = in[r * cols + c], on the host.
template <typename T>
void reference(const T* in, T* out, std::int64_t rows, std::int64_t cols);

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
