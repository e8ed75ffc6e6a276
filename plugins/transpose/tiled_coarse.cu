// The classic efficient transpose (classic_tile.cuh): a padded 32x32 tile moved by a 32xY block,
// each thread moving 32/Y elements. 32x8 is the classic; the other Y let a sweep show what the
// elements per thread buy.
#include "classic_tile.cuh"

namespace {

template <typename T>
struct TiledCoarse {
  // One unrolled kernel per block height accepts_32_wide_block lets through.
  static void launch(const kb::transpose::Operands<T>& p, kb::Launcher& launch) {
    switch (p.block.y) {
      case 1: return launch_classic<1>(p, launch);
      case 2: return launch_classic<2>(p, launch);
      case 4: return launch_classic<4>(p, launch);
      case 8: return launch_classic<8>(p, launch);
      case 16: return launch_classic<16>(p, launch);
      case 32: return launch_classic<32>(p, launch);
      default: throw kb::Error(KB_UNSUPPORTED, "tiled_coarse: block must be 32xY, Y = 2^k <= 32");
    }
  }
};

}  // namespace

KBENCH_STRATEGY(kb::transpose::Operands, TiledCoarse, kb::AllDTypes,
                {.name = "transpose/tiled_coarse",
                 .version = "1",
                 .description =
                     "padded 32x32 tile, 32xY threads moving 32/Y elements each (classic at 32x8)",
                 .device = KB_DEVICE_CUDA,
                 .accepts = kb::transpose::accepts_32_wide_block})
