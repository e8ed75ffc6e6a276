#include <kbench/families/transpose.hpp>

#include <algorithm>
#include <cstdio>

namespace kb::transpose {

template <typename T>
void reference(const T* in, T* out, std::int64_t rows, std::int64_t cols) {
  // Blocked so the host reference of a 16384^2 case takes seconds, not minutes.
  constexpr std::int64_t kTile = 64;
  for (std::int64_t r0 = 0; r0 < rows; r0 += kTile) {
    for (std::int64_t c0 = 0; c0 < cols; c0 += kTile) {
      for (std::int64_t r = r0; r < std::min(r0 + kTile, rows); ++r) {
        for (std::int64_t c = c0; c < std::min(c0 + kTile, cols); ++c) {
          out[c * rows + r] = in[r * cols + c];
        }
      }
    }
  }
}

template void reference<float>(const float*, float*, std::int64_t, std::int64_t);
template void reference<double>(const double*, double*, std::int64_t, std::int64_t);
template void reference<std::int32_t>(const std::int32_t*, std::int32_t*, std::int64_t,
                                      std::int64_t);

int accepts_square_block_up_to_32(const kb_case* c, kb_message* why) {
  if (c->block[0] != c->block[1] || c->block[0] > 32 || c->block[2] > 1) {
    std::snprintf(why->text, sizeof why->text,
                  "block must be a square tile of at most 32x32 (got %dx%d)", c->block[0],
                  c->block[1]);
    return 0;
  }
  return 1;
}

int accepts_any_2d_block(const kb_case* c, kb_message* why) {
  if (c->block[2] > 1) {
    std::snprintf(why->text, sizeof why->text, "block must be 2D (got z=%d)", c->block[2]);
    return 0;
  }
  return 1;
}

}  // namespace kb::transpose
