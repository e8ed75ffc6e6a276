/* kbench
{
  // The classic padded tile (M. Harris, "An Efficient Matrix Transpose in CUDA C/C++") with its
  // size and the elements each thread moves as knobs: a tile x tile tile moved by a block of
  // tile x (tile / per_thread) threads. Both knobs are template arguments ({tile}, {per_thread}
  // in the entry, an NVRTC name expression), so each value pair is its own compiled variant;
  // a sweep compiles them once each, in parallel, and the cache keeps them.
  "family": "transpose",
  "entry": "transpose_tiled<{T}, {tile}, {per_thread}>",
  "dtypes": ["float32", "float64", "int32"],
  "params": ["input:0", "output:0", "rows:int64", "cols:int64"],
  "knobs": [
    {"name": "tile", "values": [32], "choices": [16, 32, 64],
     "description": "the square tile's side, in elements"},
    {"name": "per_thread", "values": [4], "choices": [1, 2, 4, 8, 16],
     "description": "elements each thread moves (the block is tile x tile/per_thread)"}
  ],
  "block": ["tile", "tile / per_thread"],
  "grid": ["cdiv(cols, tile)", "cdiv(rows, tile)"],
  "requires": ["tile % per_thread == 0", "tile * tile / per_thread <= 1024",
               "tile * (tile + 1) * elem_bytes <= 48 * 1024"]
}
*/
// Each thread has per_thread independent loads in flight before it first waits; the extra
// column of the tile keeps its column reads in distinct banks.
template <typename T, int kTile, int kPerThread>
__global__ void transpose_tiled(const T* __restrict__ in, T* __restrict__ out, long long rows,
                                long long cols) {
  constexpr int kHeight = kTile / kPerThread;  // the block's height
  __shared__ T tile[kTile][kTile + 1];
  const long long r0 = blockIdx.y * static_cast<long long>(kTile);
  const long long c0 = blockIdx.x * static_cast<long long>(kTile);
  const int x = threadIdx.x;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int y = threadIdx.y + k * kHeight;
    if (r0 + y < rows && c0 + x < cols) tile[y][x] = in[(r0 + y) * cols + c0 + x];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int y = threadIdx.y + k * kHeight;
    if (c0 + y < cols && r0 + x < rows) out[(c0 + y) * rows + r0 + x] = tile[x][y];
  }
}
