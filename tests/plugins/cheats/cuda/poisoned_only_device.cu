// Cheat (CUDA): does the work only when the output looks poisoned, decided on the device. A one-
// thread kernel reads out[0] into a flag of its own; the transpose kernel after it returns at once
// unless the flag says out[0] held the poison's bits (0xFFFFFFFF). Both on the given stream, so
// every check of the stream and the host passes; the timed launches after the first cost two empty
// kernels. Written against plugin.h and the CUDA runtime alone. Expected (predicted, to confirm on a
// GPU): implausible, poisoned-output check, where the transpose is long beside two empty kernels
// (8192^2); at sizes where it is not, a non-ok status only from a functional check that launches on
// fresh inputs without poisoning the output first.
#include <kbench/plugin.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <new>

#ifndef KB_CUDA_ARCHS
#define KB_CUDA_ARCHS ""
#endif

namespace {

__global__ void looks_poisoned(const std::uint32_t* out, int* flag) {
  *flag = out[0] == 0xFFFFFFFFu;
}

__global__ void transpose(const std::uint32_t* in, std::uint32_t* out, std::int64_t rows,
                          std::int64_t cols, const int* flag) {
  if (*flag == 0) return;
  const std::int64_t c = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::int64_t r = std::int64_t{blockIdx.y} * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

kb_status prepare(const kb_case*, const kb_buffers*, void** state, kb_message* msg) {
  int* flag = nullptr;
  if (cudaMalloc(&flag, sizeof(int)) != cudaSuccess) {
    std::snprintf(msg->text, sizeof msg->text, "cannot allocate a flag");
    return KB_OOM;
  }
  *state = flag;
  return KB_OK;
}

kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
              kb_launch_config* config, kb_message* msg) {
  const auto given = static_cast<cudaStream_t>(stream);
  int* flag = static_cast<int*>(state);
  auto* out = static_cast<std::uint32_t*>(b->outputs[0].data);
  const std::int64_t rows = c->shape[0], cols = c->shape[1];
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 7) / 8));
  looks_poisoned<<<1, 1, 0, given>>>(out, flag);
  transpose<<<grid, block, 0, given>>>(static_cast<const std::uint32_t*>(b->inputs[0].data), out,
                                       rows, cols, flag);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::snprintf(msg->text, sizeof msg->text, "%s", cudaGetErrorString(e));
    return KB_ERROR;
  }
  *config = kb_launch_config{{grid.x, grid.y, 1}, {block.x, block.y, 1}, 2};
  return KB_OK;
}

void release(void* state) { cudaFree(state); }

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p = [] {
    KernelPlugin q{};
    q.abi_version = KB_ABI_VERSION;
    q.struct_size = sizeof(KernelPlugin);
    q.name = "transpose/cheat_poisoned_only_device";
    q.family = "transpose";
    q.version = "1";
    q.description = "red team: transposes only when out[0] held the poison (checked on the device)";
    q.device = KB_DEVICE_CUDA;
    q.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
    q.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
    q.ops = "";
    q.cuda_archs = KB_CUDA_ARCHS;
    q.prepare = prepare;
    q.run = run;
    q.release = release;
    return q;
  }();
  return &p;
}
