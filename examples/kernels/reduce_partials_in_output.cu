/* kbench
{
  // A sum in two kernels over one array, as its author wrote it: the first leaves one partial sum
  // per block in its output array, which is wider than the family's one result; the second, one
  // block, adds them into element 0, one partial per thread. So the second needs as many threads as
  // the first had blocks: a rule of the first launch's grid (`grid_x` in `requires`). A case whose
  // grid outgrows it (2^28 floats at 1024 threads) is `unsupported`, with the rule.
  "family": "reduce",
  "description": "two kernels, the partial sums parked in an output array wider than the result",
  "dtypes": ["float32", "float64"],
  "ops": ["sum"],
  "knobs": [
    {"name": "threads", "values": [1024], "choices": [256, 512, 1024],
     "description": "threads per block of both kernels, a template argument"},
    {"name": "blocks", "formula": "cdiv(n, threads * 64)"}
  ],
  "launches": [
    {"entry": "partial_sums<{T}, {threads}>",
     "params": ["input:0",
                {"role": "output", "index": 0, "name": "sums", "element": "T", "elements": "blocks"},
                "n:int64"],
     "block": "threads", "grid": "blocks"},
    {"entry": "sum_of_partials<{T}, {threads}>",
     "params": [{"role": "scratch", "name": "sums"},
                {"role": "knob", "name": "blocks", "type": "int32"}],
     "block": "threads", "grid": 1}
  ],
  "requires": ["grid_x <= threads"],
  "math": "simt"
}
*/

// The block's sum of each thread's `v`, in thread 0's return value: shuffles within each warp,
// then the first warp over the warps' sums.
template <typename T, unsigned kThreads>
__device__ T block_total(T v) {
  __shared__ T warps[32];
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0) warps[threadIdx.x >> 5] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? warps[threadIdx.x] : T(0);
  if (threadIdx.x < 32) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  return v;
}

// Each thread sums elements the whole grid apart; block b's total goes to sums[b].
template <typename T, unsigned kThreads>
__global__ void partial_sums(const T* in, T* sums, long long n) {
  T v = 0;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long i = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride) {
    v += in[i];
  }
  const T total = block_total<T, kThreads>(v);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// One block: thread t takes partial t (count <= kThreads), and the total lands in sums[0].
template <typename T, unsigned kThreads>
__global__ void sum_of_partials(T* sums, int count) {
  const T total = block_total<T, kThreads>(threadIdx.x < count ? sums[threadIdx.x] : T(0));
  if (threadIdx.x == 0) sums[0] = total;
}
