// The fastest transpose we have for Hopper (the kernel and its reasons: fast_tile.cuh). A block
// moves one tile, tile_height bytes of an output row tall and tile_bytes of an input row wide,
// with 16-byte accesses throughout.
#include "fast_tile.cuh"

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
constexpr kb_param kParams[] = {
    {"tile_bytes", "auto", "auto,128,256,512",
     "bytes of an input row one tile reads (16 per chunk); auto: 128 up to 16 MiB, as many as "
     "the tile is tall above"},
    {"tile_height", "auto", "auto,256,512",
     "bytes of an output row one tile writes; auto: 64 rows on a device whose DRAM moves 4 TB/s "
     "or more, 256 bytes below"}};

constexpr double kL2ResidentBytes = 16.0 * (1 << 20);
constexpr double kFastDramBytesPerSecond = 4e12;

double dram_bytes_per_second() {
  int device = 0;
  int clock_khz = 0;
  int bus_bits = 0;
  KB_CUDA_CHECK(cudaGetDevice(&device));
  KB_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device));
  KB_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  return 2.0 * clock_khz * 1e3 * bus_bits / 8;  // double data rate
}

struct Geometry {
  long long height, width;  // bytes of an output row, of an input row
};

template <typename T>
Geometry chosen_geometry(const kb::transpose::Problem<T>& p, const kb::Params& params) {
  Geometry g{};
  constexpr long long kRows64 = 64 * sizeof(T);
  g.height = params.get("tile_height", "auto") != "auto"
                 ? params.get_int("tile_height", 256)
                 : (dram_bytes_per_second() >= kFastDramBytesPerSecond ? kRows64 : 256);
  const double bytes = static_cast<double>(p.rows) * static_cast<double>(p.cols) * sizeof(T);
  g.width = params.get("tile_bytes", "auto") != "auto" ? params.get_int("tile_bytes", 256)
            : bytes <= kL2ResidentBytes                 ? 128
                                                        : g.height;
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
  Fast(const kb::transpose::Problem<T>& p, const kb::Params& params)
      : geometry(chosen_geometry(p, params)) {
    with_shape<T>(geometry, [](auto shape) { TiledTranspose<decltype(shape)>::prepare(); });
  }

  void launch(const kb::transpose::Problem<T>& p, kb::Launcher& launch) const {
    with_shape<T>(geometry, [&](auto shape) {
      TiledTranspose<decltype(shape)>::launch(p, launch, "transpose/fast");
    });
  }

  const Geometry geometry;
};

}  // namespace

KBENCH_PLUGIN(kb::transpose::Problem, Fast, kb::AllDTypes,
              {"transpose/fast", "6",
               "tiles tile_height bytes of an output row tall and tile_bytes of an input row wide "
               "(auto: 64 rows on 4 TB/s DRAM, 256 bytes below; 128 wide up to 16 MiB), 16-byte "
               "loads/stores, swizzled shared tile, register transposes",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE, "", nullptr, kb::ParamList(kParams)})
