/* kbench
{
  // A two-pass sum as the CUDA samples publish it (their reduce6): a first launch leaves one
  // partial sum per block in a buffer the kernel owns, a second launch of the same kernel, one
  // block, sums the partials into its element 0. The file is as published — host includes, a
  // host reference and main() — so nvcc compiles it (device code only); the manifest alone says
  // how kbench runs it. The sum is in T, the case's type: for int32 kbench widens it into the
  // family's int64 output after the second launch.
  "family": "reduce",
  "description": "two-pass reduction, CUDA-samples style (reduce6), partials in a buffer of its own",
  "dtypes": ["float32", "int32"],
  "ops": ["sum"],
  "knobs": [
    {"name": "threads", "values": [256], "choices": [64, 128, 256, 512, 1024],
     "description": "threads per block, a template argument (blockSize)"},
    {"name": "blocks", "formula": "min(cdiv(n, threads * 2), 1024)"},
    {"name": "pow2", "formula": "is_pow2(n)"},
    {"name": "pow2_blocks", "formula": "is_pow2(blocks)"}
  ],
  "launches": [
    {"entry": "reduce6<{T}, {threads}, {pow2} != 0>",
     "params": ["input:0",
                {"role": "scratch", "name": "partials", "bytes": "blocks * elem_bytes",
                 "result": "output:0", "zero": "never"},
                "n:uint32"],
     "block": "threads", "grid": "blocks", "shared_bytes": "threads * elem_bytes"},
    {"entry": "reduce6<{T}, {threads}, {pow2_blocks} != 0>",
     "params": [{"role": "scratch", "name": "partials"}, {"role": "scratch", "name": "partials"},
                {"role": "knob", "name": "blocks", "type": "uint32"}],
     "block": "threads", "grid": 1, "shared_bytes": "threads * elem_bytes"}
  ]
}
*/
#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

// Each thread sums elements a grid apart (two per step where n is a power of two), then the block
// halves its sums in shared memory down to a warp, which finishes with shuffles.
template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce6(const T* g_idata, T* g_odata, unsigned int n) {
  extern __shared__ __align__(sizeof(double)) unsigned char smem[];
  T* sdata = reinterpret_cast<T*>(smem);
  const unsigned int tid = threadIdx.x;
  T mySum = 0;
  if (nIsPow2) {
    const unsigned int gridSize = blockSize * 2 * gridDim.x;
    for (unsigned int i = blockIdx.x * blockSize * 2 + tid; i < n; i += gridSize) {
      mySum += g_idata[i];
      if (i + blockSize < n) mySum += g_idata[i + blockSize];
    }
  } else {
    const unsigned int gridSize = blockSize * gridDim.x;
    for (unsigned int i = blockIdx.x * blockSize + tid; i < n; i += gridSize) mySum += g_idata[i];
  }
  sdata[tid] = mySum;
  __syncthreads();
  if (blockSize >= 1024 && tid < 512) sdata[tid] = mySum = mySum + sdata[tid + 512];
  __syncthreads();
  if (blockSize >= 512 && tid < 256) sdata[tid] = mySum = mySum + sdata[tid + 256];
  __syncthreads();
  if (blockSize >= 256 && tid < 128) sdata[tid] = mySum = mySum + sdata[tid + 128];
  __syncthreads();
  if (blockSize >= 128 && tid < 64) sdata[tid] = mySum = mySum + sdata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    if (blockSize >= 64) mySum += sdata[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) {
      mySum += __shfl_down_sync(0xffffffffu, mySum, offset);
    }
  }
  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

static bool isPow2(unsigned int x) { return x != 0 && (x & (x - 1)) == 0; }

// The host side, as the sample has it: partial sums, then one block over them.
template <class T>
T reduce(const T* d_in, T* d_partials, unsigned int n) {
  constexpr unsigned int threads = 256;
  const unsigned int blocks = std::min((n + threads * 2 - 1) / (threads * 2), 1024u);
  const size_t smem = threads * sizeof(T);
  if (isPow2(n)) {
    reduce6<T, threads, true><<<blocks, threads, smem>>>(d_in, d_partials, n);
  } else {
    reduce6<T, threads, false><<<blocks, threads, smem>>>(d_in, d_partials, n);
  }
  if (isPow2(blocks)) {
    reduce6<T, threads, true><<<1, threads, smem>>>(d_partials, d_partials, blocks);
  } else {
    reduce6<T, threads, false><<<1, threads, smem>>>(d_partials, d_partials, blocks);
  }
  T total = 0;
  assert(cudaMemcpy(&total, d_partials, sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
  return total;
}

int main(int argc, char** argv) {
  const unsigned int n = argc > 1 ? static_cast<unsigned int>(std::atoi(argv[1])) : 1u << 24;
  std::vector<int> h(n);
  long long expected = 0;
  for (unsigned int i = 0; i < n; ++i) expected += h[i] = static_cast<int>(i % 7) - 3;
  int *d_in = nullptr, *d_partials = nullptr;
  assert(cudaMalloc(&d_in, n * sizeof(int)) == cudaSuccess);
  assert(cudaMalloc(&d_partials, 1024 * sizeof(int)) == cudaSuccess);
  assert(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
  const int total = reduce(d_in, d_partials, n);
  std::printf("%s: %d (expected %lld)\n", total == expected ? "PASSED" : "FAILED", total, expected);
  cudaFree(d_in);
  cudaFree(d_partials);
  return total == expected ? EXIT_SUCCESS : EXIT_FAILURE;
}
