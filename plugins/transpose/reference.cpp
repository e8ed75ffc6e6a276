#include <kbench/families/transpose.hpp>

#include <algorithm>
#include <cstdio>

namespace kb::transpose {

template <typename T>
void reference(const T* in, T* out, std::int64_t rows, std::int64_t cols) {
  // Blocked so the host reference of a 16384^2 case takes seconds, not minutes; the row tiles are
  // shared among the host threads (each writes its own rows of every output column).
  constexpr std::int64_t kTile = 64;
  if (rows <= 0 || cols <= 0) return;
  const auto row_tiles = static_cast<std::size_t>((rows + kTile - 1) / kTile);
  const auto tiles_per_chunk = static_cast<std::size_t>(
      std::max<std::int64_t>(1, static_cast<std::int64_t>(kHostGrain) / (kTile * cols)));
  parallel_for(row_tiles, tiles_per_chunk, [=](std::size_t first_tile, std::size_t end_tile) {
    const std::int64_t row_end = std::min(static_cast<std::int64_t>(end_tile) * kTile, rows);
    for (std::int64_t r0 = static_cast<std::int64_t>(first_tile) * kTile; r0 < row_end;
         r0 += kTile) {
      for (std::int64_t c0 = 0; c0 < cols; c0 += kTile) {
        for (std::int64_t r = r0; r < std::min(r0 + kTile, rows); ++r) {
          for (std::int64_t c = c0; c < std::min(c0 + kTile, cols); ++c) {
            out[c * rows + r] = in[r * cols + c];
          }
        }
      }
    }
  });
}

#define KB_TRANSPOSE_TYPE(T) \
  template void reference<T>(const T*, T*, std::int64_t, std::int64_t);
KB_TRANSPOSE_TYPE(float)
KB_TRANSPOSE_TYPE(double)
KB_TRANSPOSE_TYPE(std::int32_t)
KB_TRANSPOSE_TYPE(__half)
KB_TRANSPOSE_TYPE(__nv_bfloat16)
KB_TRANSPOSE_TYPE(std::int8_t)
#undef KB_TRANSPOSE_TYPE

namespace {

constexpr std::int64_t kMaxGridY = 65535;

bool is_2d(const kb_case* c, kb_message* why) {
  if (c->block[2] > 1) {
    std::snprintf(why->text, sizeof why->text, "block must be 2D (got z=%d)", c->block[2]);
    return false;
  }
  return true;
}

// `extent` is the dimension the strategy spreads over grid.y, `per_block` how much of it one
// block covers.
bool grid_y_fits(std::int64_t extent, std::int64_t per_block, kb_message* why) {
  per_block = std::max<std::int64_t>(per_block, 1);
  const std::int64_t blocks = (extent + per_block - 1) / per_block;
  if (blocks > kMaxGridY) {
    std::snprintf(why->text, sizeof why->text,
                  "the grid would need %lld blocks in y; CUDA allows %lld",
                  static_cast<long long>(blocks), static_cast<long long>(kMaxGridY));
    return false;
  }
  return true;
}

}  // namespace

int accepts_any_2d_block(const kb_case* c, kb_message* why) {
  // naive_row spreads the rows over grid.y, naive_col the columns: hold both to the limit.
  return is_2d(c, why) && grid_y_fits(std::max(c->shape[0], c->shape[1]), c->block[1], why);
}

int accepts_square_block_up_to_32(const kb_case* c, kb_message* why) {
  if (c->block[0] != c->block[1] || c->block[0] > 32 || c->block[2] > 1) {
    std::snprintf(why->text, sizeof why->text,
                  "block must be a square tile of at most 32x32 (got %dx%d)", c->block[0],
                  c->block[1]);
    return 0;
  }
  return grid_y_fits(c->shape[0], c->block[1], why);
}

int accepts_32_wide_block(const kb_case* c, kb_message* why) {
  const int y = c->block[1];
  if (c->block[0] != 32 || y < 1 || y > 32 || (y & (y - 1)) != 0 || c->block[2] > 1) {
    std::snprintf(why->text, sizeof why->text,
                  "block must be 32xY with Y a power of two up to 32: a 32x32 tile, 32/Y "
                  "elements per thread (got %dx%d)",
                  c->block[0], c->block[1]);
    return 0;
  }
  return grid_y_fits(c->shape[0], 32, why);
}

}  // namespace kb::transpose
