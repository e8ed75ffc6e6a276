/* kbench
{
  // A one-kernel sum (or sum of squares): a grid-stride walk, warp shuffles within each block,
  // the block totals in a scratch buffer, and the last block to finish adds them in block order
  // and resets the ticket it counted with, so every launch starts from a zero ticket and writes
  // the same bits. The scratch buffer (a ticket and one total per block) is kbench's to
  // allocate: its size is a formula of the grid; zeroed once per case.
  "family": "reduce",
  "entry": "reduce_last_block",
  "dtypes": ["float32", "float64", "int32"],
  "ops": ["sum", "sumsq"],
  "params": [
    "input:0", "output:0", "n:int64",
    {"role": "scalar", "name": "square", "type": "int32", "value": "op_sumsq"},
    {"role": "scratch", "name": "totals", "bytes": "16 + grid_x * 8", "zero": "once"}
  ],
  "block": ["bx"],
  "grid": ["min(cdiv(n, bx * 4), sms * 8)"],
  "requires": ["by == 1", "bz == 1", "bx % 32 == 0"],
  "math": "simt"
}
*/
// The family's operands: in (n elements of T) and out (one total: int64 for int32, T otherwise).
template <typename X> struct Total { typedef X type; };
template <> struct Total<int> { typedef long long type; };
typedef Total<T>::type Acc;

// The block's sum of v, in thread 0.
__device__ Acc block_sum(Acc v) {
  __shared__ Acc warps[32];
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warps[warp] = v;
  __syncthreads();
  v = threadIdx.x < (blockDim.x >> 5) ? warps[lane] : Acc(0);
  if (warp == 0) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  __syncthreads();  // warps[] may be used again
  return v;
}

extern "C" __global__ void reduce_last_block(const T* __restrict__ in, Acc* __restrict__ out,
                                             long long n, int square, unsigned char* scratch) {
  unsigned int* ticket = reinterpret_cast<unsigned int*>(scratch);
  Acc* totals = reinterpret_cast<Acc*>(scratch + 16);
  Acc sum = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const Acc x = static_cast<Acc>(in[i]);
    sum += square ? x * x : x;
  }
  sum = block_sum(sum);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    totals[blockIdx.x] = sum;
    __threadfence();  // the total is seen before the ticket is taken
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  Acc total = 0;
  for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) total += __ldcg(&totals[i]);
  total = block_sum(total);
  if (threadIdx.x == 0) {
    *out = total;
    *ticket = 0;
  }
}
