// The cost model behind the tuning tests: a space of three axes — block (5 shapes), unroll (4
// values), vec (2) — with a global optimum in a shallow basin (its neighbours within 5%) and a
// local optimum 27% slower that hill climbing can get stuck on. The test plugin tuning/model
// (tests/plugins/tuning_model.cpp) spins for these times, so a real `kbench tune` measures them;
// the simulation tests write them as rows of a CSV. The optimum moves with the shape (n), so each
// shape has its own best configuration.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <string>

namespace kbtest::tuning {

// In the order of the space's axes: blocks by threads, then x; values naturally.
inline constexpr const char* kBlocks[] = {"8x8", "16x8", "16x16", "32x8", "32x16"};
inline constexpr int kUnrolls[] = {1, 2, 4, 8};
inline constexpr int kVecs[] = {1, 2};
inline constexpr int kConfigurations = 5 * 4 * 2;

// The plugin's accepts() refuses block 32x16 with unroll 8 (two configurations).
inline bool refused(int b, int u) { return b == 4 && u == 3; }
// And this configuration fails its verification: a bad configuration, not a failed tune.
inline bool broken(int b, int u, int v) { return b == 0 && u == 0 && v == 1; }

struct Point {
  int b, u, v;
};
// The optimum, the local optimum, of a shape of n elements.
inline Point global_optimum(long long n) { return n < 2000 ? Point{3, 1, 1} : Point{1, 2, 0}; }
inline Point local_optimum(long long n) { return n < 2000 ? Point{0, 3, 0} : Point{4, 0, 1}; }

// A parameter's value in a params cell ("unroll=2;vec=1"); -1 when the cell lacks it.
inline int value_of(const std::string& params, const std::string& name) {
  const auto at = (";" + params).find(";" + name + "=");
  return at == std::string::npos ? -1 : std::atoi(params.c_str() + at + name.size() + 1);
}

// The point of a configuration as a row's cells ("32x8", "unroll=2;vec=1"); an index of -1 for
// a value the model lacks.
inline Point point_of(const std::string& block, const std::string& params) {
  Point p{-1, -1, -1};
  for (int b = 0; b < 5; ++b) {
    if (block == kBlocks[b]) p.b = b;
  }
  for (int u = 0; u < 4; ++u) {
    if (value_of(params, "unroll") == kUnrolls[u]) p.u = u;
  }
  for (int v = 0; v < 2; ++v) {
    if (value_of(params, "vec") == kVecs[v]) p.v = v;
  }
  return p;
}

inline int distance(Point a, Point b) {
  return std::abs(a.b - b.b) + std::abs(a.u - b.u) + std::abs(a.v - b.v);
}

// Microseconds, times n/1000: 100 at the optimum, 104.5 one step away, 15 more per step beyond;
// 127 at the local optimum, 15 more per step. The two slopes' values interleave 7.5 apart, so
// neighbours' costs are at least 3.5% apart: timing noise does not reorder them.
inline double cost_us(long long n, Point p) {
  const int d = distance(p, global_optimum(n));
  const double global = d == 0 ? 1.0 : 1.045 + 0.15 * (d - 1);
  const double local = 1.27 + 0.15 * distance(p, local_optimum(n));
  return 100.0 * static_cast<double>(n) / 1000 * std::min(global, local);
}

}  // namespace kbtest::tuning
