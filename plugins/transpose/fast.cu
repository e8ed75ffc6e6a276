// The fastest transpose we have for Hopper (the kernel and its reasons: fast_tile.cuh). A block
// moves a tile of 512 bytes by 512 bytes — 128x128 for 4-byte types (1024 threads, 64 KB of
// shared memory), 64x64 for float64 (512 threads) — so every input row read and every output row
// written is a 512-byte run. Measured on an H100 (2026-11-22, same run): this tile reached
// 0.957-0.972 of a device-to-device copy at 8192x8192 and 8192x4096, where a tile 256 bytes wide
// on the input side reached 0.930-0.979 (float32 0.930 at 8192x4096): short runs cost DRAM page
// locality.
#include "fast_tile.cuh"

namespace {

// The width of the tile on the input side is the knob (tile_bytes: 16-byte chunks per input row
// times 16). `auto`, the default, takes 512 bytes, measured best where the matrix streams from
// DRAM, and 128 for a matrix of at most 16 MiB: it stays in the 50 MB L2 between launches, DRAM
// page locality does not matter, and four times as many tiles fill the SMs more evenly. H100,
// 2026-11-24, same run: float32 2048x2048 7.82 us at 128, 8.14 at 256, 8.51 at 512 (cuBLAS 8.43);
// at 8192x8192 128 lost 2.4% (float32) and 2.7% (float64) to 512, and 256 was within 0.4% of it.
constexpr kb_param kParams[] = {{"tile_bytes", "auto", "auto,128,256,512",
                                 "bytes of an input row one tile reads (16 per chunk); auto: 128 "
                                 "up to 16 MiB, 512 above"}};

constexpr double kL2ResidentBytes = 16.0 * (1 << 20);

template <typename T>
long long chosen_tile_bytes(const kb::transpose::Problem<T>& p, const kb::Params& params) {
  if (params.get("tile_bytes", "auto") != "auto") return params.get_int("tile_bytes", 512);
  const double bytes = static_cast<double>(p.rows) * static_cast<double>(p.cols) * sizeof(T);
  return bytes <= kL2ResidentBytes ? 128 : 512;
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
  // Each allows its kernels the shared memory they need, once per case.
  TiledTranspose<T, 8> narrow;
  TiledTranspose<T, 16> middle;
  TiledTranspose<T, 32> wide;
};

}  // namespace

KBENCH_PLUGIN(kb::transpose::Problem, Fast, kb::AllDTypes,
              {"transpose/fast", "4",
               "512-byte x 512-byte tile (128x128 4-byte, 64x64 float64), 16-byte loads/stores, "
               "swizzled shared tile, register transposes; tile_bytes narrows the input side "
               "(auto: 128 bytes for a matrix of at most 16 MiB)",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE, "", nullptr, kb::ParamList(kParams)})
