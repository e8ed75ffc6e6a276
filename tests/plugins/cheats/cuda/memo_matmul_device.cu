// Cheat (CUDA): the host memo cheat (host/memo_matmul.c) on the device, all on the stream it is
// given. A digest of every element of A and B (one read of each, the case's least traffic) is held
// against the last launch's; on a match the multiply kernel returns at once and the C kept from the
// launch that computed it is copied out. A pure function of the inputs, so every output check
// passes, and the stream is never synchronised, so held samples stay held. Written against
// plugin.h and the CUDA runtime alone. Expected: verify_failed, check 'changed inputs' (the launch
// after a near redraw, timed as the samples are, multiplies: far over the median).
#include <kbench/plugin.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <new>

#ifndef KB_CUDA_ARCHS
#define KB_CUDA_ARCHS ""
#endif

namespace {

struct Memo {
  unsigned long long digest;  // of this launch's inputs
  unsigned long long last;    // of the launch that computed the kept C
  int have, hit;
};

__device__ unsigned long long mix(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

// Order-free, so blocks may add in any order: the sum of each element mixed with its place.
__global__ void digest(const std::uint32_t* a, std::int64_t a_count, const std::uint32_t* b,
                       std::int64_t b_count, Memo* memo) {
  unsigned long long sum = 0;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < a_count + b_count;
       i += stride) {
    const std::uint32_t word = i < a_count ? a[i] : b[i - a_count];
    sum += mix((static_cast<unsigned long long>(i) << 32) ^ word);
  }
  atomicAdd(&memo->digest, sum);
}

__global__ void decide(Memo* memo) {
  memo->hit = memo->have && memo->digest == memo->last;
  memo->last = memo->digest;
  memo->have = 1;
}

__global__ void multiply(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n,
                         std::int64_t k, const Memo* memo) {
  if (memo->hit) return;
  const std::int64_t col = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::int64_t row = std::int64_t{blockIdx.y} * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float sum = 0;
  for (std::int64_t i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = sum;
}

struct State {
  Memo* memo = nullptr;
  float* kept = nullptr;
};

void release(void* state) {
  State* s = static_cast<State*>(state);
  cudaFree(s->memo);
  cudaFree(s->kept);
  delete s;
}

kb_status prepare(const kb_case*, const kb_buffers* b, void** state, kb_message* msg) {
  State* s = new (std::nothrow) State;
  if (s == nullptr) return KB_OOM;
  if (cudaMalloc(&s->memo, sizeof(Memo)) != cudaSuccess ||
      cudaMalloc(&s->kept, static_cast<std::size_t>(b->outputs[0].bytes)) != cudaSuccess ||
      cudaMemset(s->memo, 0, sizeof(Memo)) != cudaSuccess) {
    release(s);
    std::snprintf(msg->text, sizeof msg->text, "cannot allocate the memo");
    return KB_OOM;
  }
  *state = s;
  return KB_OK;
}

kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream_handle,
              kb_launch_config* config, kb_message* msg) {
  const State* s = static_cast<const State*>(state);
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  const std::int64_t m = c->shape[0], n = c->shape[1], k = c->shape[2];
  cudaMemsetAsync(&s->memo->digest, 0, sizeof(unsigned long long), stream);
  digest<<<264, 256, 0, stream>>>(static_cast<const std::uint32_t*>(b->inputs[0].data),
                                  b->inputs[0].count,
                                  static_cast<const std::uint32_t*>(b->inputs[1].data),
                                  b->inputs[1].count, s->memo);
  decide<<<1, 1, 0, stream>>>(s->memo);
  const dim3 block(16, 16);
  const dim3 grid(static_cast<unsigned>((n + 15) / 16), static_cast<unsigned>((m + 15) / 16));
  multiply<<<grid, block, 0, stream>>>(static_cast<const float*>(b->inputs[0].data),
                                       static_cast<const float*>(b->inputs[1].data), s->kept, m, n,
                                       k, s->memo);
  cudaMemcpyAsync(b->outputs[0].data, s->kept, static_cast<std::size_t>(b->outputs[0].bytes),
                  cudaMemcpyDeviceToDevice, stream);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::snprintf(msg->text, sizeof msg->text, "%s", cudaGetErrorString(e));
    return KB_ERROR;
  }
  *config = kb_launch_config{{grid.x, grid.y, 1}, {block.x, block.y, 1}, 3};
  return KB_OK;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p = [] {
    KernelPlugin q{};
    q.abi_version = KB_ABI_VERSION;
    q.struct_size = sizeof(KernelPlugin);
    q.name = "matmul/cheat_memo_device";
    q.family = "matmul";
    q.version = "1";
    q.description = "red team: on the device, copies a kept C when a digest of all of A and B is as "
                    "last time";
    q.device = KB_DEVICE_CUDA;
    q.dtypes = KB_DTYPE_F32;
    q.flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT;
    q.ops = "";
    q.cuda_archs = KB_CUDA_ARCHS;
    q.prepare = prepare;
    q.run = run;
    q.release = release;
    return q;
  }();
  return &p;
}
