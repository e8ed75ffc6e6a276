// The fastest transpose we have for Hopper (the kernel and its reasons: fast_tile.cuh). A block
// moves a tile 256 bytes of an output row tall (64 rows of 4-byte types, 32 of float64) and
// tile_bytes of an input row wide, with 16-byte accesses throughout.
#include "fast_tile.cuh"

namespace {

// The width of the tile on the input side is the knob (tile_bytes: 16-byte chunks per input row
// times 16). `auto`, the default, takes 256 bytes, measured best where the matrix streams from
// DRAM, and 128 for a matrix of at most 16 MiB: it stays in the 50 MB L2 between launches, DRAM
// page locality does not matter, and twice as many tiles fill the SMs more evenly.
constexpr kb_param kParams[] = {{"tile_bytes", "auto", "auto,128,256,512",
                                 "bytes of an input row one tile reads (16 per chunk); auto: 128 "
                                 "up to 16 MiB, 256 above"}};

constexpr double kL2ResidentBytes = 16.0 * (1 << 20);

template <typename T>
long long chosen_tile_bytes(const kb::transpose::Problem<T>& p, const kb::Params& params) {
  if (params.get("tile_bytes", "auto") != "auto") return params.get_int("tile_bytes", 512);
  const double bytes = static_cast<double>(p.rows) * static_cast<double>(p.cols) * sizeof(T);
  return bytes <= kL2ResidentBytes ? 128 : 256;
}

template <typename T>
struct Fast {
  Fast(const kb::transpose::Problem<T>& p, const kb::Params& params)
      : tile_bytes(chosen_tile_bytes(p, params)) {}

  void launch(const kb::transpose::Problem<T>& p, kb::Launcher& launch) const {
    switch (tile_bytes) {
      case 128: return TiledTranspose<T, 8>::launch(p, launch, "transpose/fast");
      case 256: return TiledTranspose<T, 16>::launch(p, launch, "transpose/fast");
      case 512: return TiledTranspose<T, 32>::launch(p, launch, "transpose/fast");
    }
    throw kb::Error(KB_UNSUPPORTED, "tile_bytes=" + std::to_string(tile_bytes) +
                                        ": transpose/fast takes 128, 256 or 512");
  }

  const long long tile_bytes;
  // Each gives its kernels the largest shared-memory carveout, once per case.
  TiledTranspose<T, 8> narrow;
  TiledTranspose<T, 16> middle;
  TiledTranspose<T, 32> wide;
};

}  // namespace

KBENCH_PLUGIN(kb::transpose::Problem, Fast, kb::AllDTypes,
              {"transpose/fast", "5",
               "tiles 256 bytes of an output row tall (64 rows 4-byte, 32 float64) and tile_bytes "
               "of an input row wide (auto: 128 up to 16 MiB, 256 above), 16-byte loads/stores, "
               "swizzled shared tile, register transposes",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE, "", nullptr, kb::ParamList(kParams)})
