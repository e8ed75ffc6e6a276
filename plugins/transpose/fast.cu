// The fastest transpose we have for Hopper. Two kernels: the 16-byte chunk tiles of fast_tile.cuh
// (a block moves one tile, tile_height bytes of an output row tall and tile_bytes of an input row
// wide, the tiles taken in tile_order), and for 8-byte elements in a small matrix the classic
// padded 32x32 tile of classic_tile.cuh.
#include "classic_tile.cuh"
#include "fast_tile.cuh"

#include <kbench/support/device.hpp>

#include <type_traits>

namespace {

// Both sides of the tile are knobs. `auto`, the default, takes the shape measured best on the
// H100 and the H200 (fast_tile.cuh): 256 bytes tall on the H100 (HBM3), 64 rows tall on a device
// whose DRAM moves 4 TB/s or more (the H200's HBM3e: 256 bytes of float32, 512 of float64; there
// float32 8192x8192 took 137.4 us at 256 bytes against 141.4 at 512, float64 272.6 at 512 against
// 276.2 at 256, same run, 2026-11-25); as wide as tall where the matrix streams from DRAM, and
// 128 bytes wide for a matrix of at most 16 MiB: it stays in the 50 MB L2 between launches, DRAM
// page locality does not matter, and more tiles fill the SMs more evenly (H100, 256 bytes tall,
// same run: float32 2048x2048 7.73 us at 128 wide, 8.06 at 256, 8.54 at 512; 8192x8192 192.1,
// 185.6, 185.8; results/checks/h100-fast-v5-widths.csv).
//
// The tile order and the kernel, from a standalone benchmark beside cudaMemcpyAsync and cuBLAS
// geam (2026-11-25, medians of 90 launches interleaved with every other variant, one run per GPU):
// on the H200, tiles taken down column bands moved float32 8192x8192 at 0.984 of the copy against
// 0.958 across row bands (256-byte tiles), float64 at 1.012-1.018 of cuBLAS against 0.977-0.987;
// on the H100 the row bands stayed ahead (float32 0.977 against 0.974, float64 0.985 against
// 0.977). For float64 2048x2048 (32 MiB) every chunk tile lost to cuBLAS on the H200 (0.957-0.969)
// while the classic tile at 32x8 beat it on both GPUs (1.056 H200, 1.038 H100); at float32 the
// chunk tiles win there (1.10 and 1.08 against 0.97 and 1.04).
constexpr kb_param kParams[] = {
    {"tile_bytes", "auto", "auto,128,256,512",
     "bytes of an input row one tile reads (16 per chunk); auto: 128 up to 16 MiB, as many as "
     "the tile is tall above"},
    {"tile_height", "auto", "auto,256,512",
     "bytes of an output row one tile writes; auto: 64 rows on a device whose DRAM moves 4 TB/s "
     "or more, 256 bytes below"},
    {"tile_order", "auto", "auto,rows,columns",
     "bands of tiles the blocks walk in turn; auto: columns on a device whose DRAM moves 4 TB/s "
     "or more, rows below"},
    {"kernel", "auto", "auto,chunks,classic",
     "chunks: the tiles above, 16-byte accesses; classic: a padded 32x32 tile of elements, 32x8 "
     "threads (the tile knobs must stay auto); auto: classic for 8-byte elements up to 32 MiB "
     "unless a tile knob is set"}};

constexpr double kL2ResidentBytes = 16.0 * (1 << 20);
constexpr double kClassicMaxBytes = 32.0 * (1 << 20);
constexpr double kFastDramBytesPerSecond = 4e12;

double dram_bytes_per_second() {
  const double clock_khz = kb::current_device_attribute(cudaDevAttrMemoryClockRate);
  const double bus_bits = kb::current_device_attribute(cudaDevAttrGlobalMemoryBusWidth);
  return 2.0 * clock_khz * 1e3 * bus_bits / 8;  // double data rate
}

struct Geometry {
  bool classic;             // the classic 32x32 tile; the rest describes the chunk tiles
  long long height, width;  // bytes of an output row, of an input row
  TileOrder order;
};

template <typename T>
Geometry chosen_geometry(const kb::transpose::Operands<T>& p, const kb::Params& params) {
  Geometry g{};
  const bool fast_dram = dram_bytes_per_second() >= kFastDramBytesPerSecond;
  const double bytes = static_cast<double>(p.rows) * static_cast<double>(p.cols) * sizeof(T);
  // A tile knob set by hand asks for the chunk tiles: auto does not trade it for the classic tile,
  // and the classic kernel refuses it rather than run under a label that does not apply.
  std::string shaped_by;
  for (const char* knob : {"tile_bytes", "tile_height", "tile_order"}) {
    if (params.get(knob, "auto") != "auto") shaped_by = knob;
  }
  const std::string kernel = params.get("kernel", "auto");
  g.classic = kernel == "auto" ? sizeof(T) == 8 && bytes <= kClassicMaxBytes &&
                                     shaped_by.empty() && p.rows <= kClassicMaxRows
                               : kernel == "classic";
  if (g.classic && !shaped_by.empty()) {
    throw kb::Error(KB_UNSUPPORTED, shaped_by + "=" + params.get(shaped_by, "") +
                                        ": the classic kernel has one tile; " + shaped_by +
                                        " shapes kernel=chunks");
  }
  if (g.classic && p.rows > kClassicMaxRows) {
    throw kb::Error(KB_UNSUPPORTED, "kernel=classic takes at most 65535 * 32 rows");
  }
  constexpr long long kRows64 = 64 * sizeof(T);
  g.height = params.get("tile_height", "auto") != "auto" ? params.get_int("tile_height", 256)
             : fast_dram                                  ? kRows64
                                                          : 256;
  g.width = params.get("tile_bytes", "auto") != "auto" ? params.get_int("tile_bytes", 256)
            : bytes <= kL2ResidentBytes                 ? 128
                                                        : g.height;
  const std::string order = params.get("tile_order", "auto");
  g.order = order == "columns" || (order == "auto" && fast_dram) ? TileOrder::column_bands
                                                                 : TileOrder::row_bands;
  return g;
}

// Calls f with the TileShape of the geometry (a value of an empty type: the shape is its type).
template <typename T, class F>
void with_shape(const Geometry& g, F&& f) {
  const auto by_width = [&](auto height) {
    constexpr int kHeight = decltype(height)::value;
    switch (g.width) {
      case 128: return f(TileShape<T, kHeight, 8>{});
      case 256: return f(TileShape<T, kHeight, 16>{});
      case 512: return f(TileShape<T, kHeight, 32>{});
    }
    throw kb::Error(KB_UNSUPPORTED, "tile_bytes=" + std::to_string(g.width) +
                                        ": transpose/fast takes 128, 256 or 512");
  };
  switch (g.height) {
    case 256: return by_width(std::integral_constant<int, 256>{});
    case 512: return by_width(std::integral_constant<int, 512>{});
  }
  throw kb::Error(KB_UNSUPPORTED, "tile_height=" + std::to_string(g.height) +
                                      ": transpose/fast takes 256 or 512");
}

template <typename T>
struct Fast {
  Fast(const kb::transpose::Operands<T>& p, const kb::Params& params)
      : geometry(chosen_geometry(p, params)) {
    if (geometry.classic) return;
    with_shape<T>(geometry, [](auto shape) { TiledTranspose<decltype(shape)>::prepare(); });
  }

  void launch(const kb::transpose::Operands<T>& p, kb::Launcher& launch) const {
    if (geometry.classic) return launch_classic<8>(p, launch);
    with_shape<T>(geometry, [&](auto shape) {
      TiledTranspose<decltype(shape)>::launch(p, launch, geometry.order, "transpose/fast");
    });
  }

  const Geometry geometry;
};

}  // namespace

KBENCH_STRATEGY(kb::transpose::Operands, Fast, kb::AllDTypes,
                {.name = "transpose/fast",
                 .version = "7",
                 .description = "tiles tile_height bytes of an output row tall and tile_bytes of "
                                "an input row wide (auto: 64 rows on 4 TB/s DRAM, 256 bytes "
                                "below; 128 wide up to 16 MiB), 16-byte loads/stores, swizzled "
                                "shared tile, register transposes, taken in row or column bands "
                                "(auto: columns on 4 TB/s DRAM); 8-byte elements up to 32 MiB: "
                                "the classic padded 32x32 tile",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE,
                 .params = kb::ParamList(kParams)})
