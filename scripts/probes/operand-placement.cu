// Does where a transpose's operands lie, or another process's CUDA context on the same GPU, change
// its time? The same kernels on five placements, each the median of 200 launches timed by events:
// alone    : the timing process's own cudaMalloc(bytes), before any other process made a context
//            on the GPU (the allocating process waits for it)
// own      : the same, with the allocating process's context live beside it, as the referee's is
//            beside a worker
// own+off  : its own allocation of the referee's size (a large page before, a guard after), the
//            operand at +2 MiB
// ipc      : another process's cudaMalloc(bytes), opened by IPC
// ipc+off  : another process's cudaMalloc(front+bytes+guard rounded), operand at +2 MiB, as the
//            referee shares a device operand
// then the last four again in a second round. Build and run on a GPU machine:
//   nvcc -O3 -arch=sm_90 -o placement operand-placement.cu && ./placement
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                        \
  do {                                                                               \
    cudaError_t e = (x);                                                             \
    if (e != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

template <typename T>
__global__ void naive_row(const T* in, T* out, std::int64_t rows, std::int64_t cols) {
  const std::int64_t c = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  const std::int64_t r = blockIdx.y * std::int64_t{blockDim.y} + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}
template <typename T>
__global__ void copy(const T* in, T* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = in[i];
}

constexpr std::uint64_t kPage = 2u << 20;
std::uint64_t padded(std::uint64_t bytes) {
  return (kPage + bytes + 4096 + kPage - 1) / kPage * kPage;
}

struct Case {
  const char* name;
  int elem;
  std::int64_t rows, cols;
  int bx, by;
};
const Case kCases[] = {
    {"naive_row f64 2048^2 32x8", 8, 2048, 2048, 32, 8},
    {"naive_row f64 2048^2 16x16", 8, 2048, 2048, 16, 16},
    {"naive_row f32 4096^2 32x8", 4, 4096, 4096, 32, 8},
    {"naive_row f64 8192x4096 32x8", 8, 8192, 4096, 32, 8},
    {"naive_row f64 8192^2 32x8", 8, 8192, 8192, 32, 8},
    {"copy f32 2^24", -4, 1 << 24, 1, 256, 1},
};

double time_case(const Case& c, void* in, void* out) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  auto launch = [&] {
    if (c.elem < 0) {
      copy<float><<<1056, 256>>>((const float*)in, (float*)out, c.rows);
      return;
    }
    dim3 block(c.bx, c.by), grid((c.cols + c.bx - 1) / c.bx, (c.rows + c.by - 1) / c.by);
    if (c.elem == 8)
      naive_row<double><<<grid, block>>>((const double*)in, (double*)out, c.rows, c.cols);
    else
      naive_row<float><<<grid, block>>>((const float*)in, (float*)out, c.rows, c.cols);
  };
  for (int i = 0; i < 20; ++i) launch();
  std::vector<float> t;
  for (int i = 0; i < 200; ++i) {
    CK(cudaEventRecord(a));
    launch();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2] * 1e3;
}

std::uint64_t bytes_of(const Case& c) {
  return std::uint64_t(c.rows) * c.cols * (c.elem < 0 ? -c.elem : c.elem);
}

// The case on fresh allocations of the timing process's own: of its bytes, or of the referee's
// size with the operand at +2 MiB (`as_referee`).
double time_on_own(const Case& c, bool as_referee) {
  const std::uint64_t bytes = bytes_of(c);
  const std::uint64_t total = as_referee ? padded(bytes) : bytes;
  const std::uint64_t at = as_referee ? kPage : 0;
  char *in, *out;
  CK(cudaMalloc((void**)&in, total));
  CK(cudaMalloc((void**)&out, total));
  CK(cudaMemset(in, 1, total));
  const double us = time_case(c, in + at, out + at);
  CK(cudaFree(in));
  CK(cudaFree(out));
  return us;
}

int main() {
  const int n = sizeof kCases / sizeof kCases[0];
  int to_child[2], to_parent[2];
  if (pipe(to_child) || pipe(to_parent)) return 1;
  const pid_t pid = fork();
  if (pid == 0) {
    close(to_child[1]);
    close(to_parent[0]);
    // The timing process: alone on the GPU first; then, beside the other process's context, its
    // own allocations and the other process's.
    double alone[sizeof kCases / sizeof kCases[0]];
    for (int i = 0; i < n; ++i) alone[i] = time_on_own(kCases[i], false);
    const char go = 1;
    if (write(to_parent[1], &go, 1) != 1) return 2;
    for (int round = 0; round < 2; ++round)
      for (int i = 0; i < n; ++i) {
        const Case& c = kCases[i];
        const double own = time_on_own(c, false);
        const double own_off = time_on_own(c, true);
        double ipc[2];
        for (int off = 0; off < 2; ++off) {
          cudaIpcMemHandle_t h[2];
          if (read(to_child[0], h, sizeof h) != sizeof h) return 2;
          char *a, *b;
          CK(cudaIpcOpenMemHandle((void**)&a, h[0], cudaIpcMemLazyEnablePeerAccess));
          CK(cudaIpcOpenMemHandle((void**)&b, h[1], cudaIpcMemLazyEnablePeerAccess));
          ipc[off] = time_case(c, a + (off ? kPage : 0), b + (off ? kPage : 0));
          CK(cudaIpcCloseMemHandle(a));
          CK(cudaIpcCloseMemHandle(b));
          char done = 1;
          if (write(to_parent[1], &done, 1) != 1) return 2;
        }
        std::printf(
            "%-30s alone %8.2f  own %8.2f (%.3f)  own+off %8.2f (%.3f)  ipc %8.2f (%.3f)  "
            "ipc+off %8.2f (%.3f) us\n",
            c.name, alone[i], own, own / alone[i], own_off, own_off / alone[i], ipc[0],
            ipc[0] / alone[i], ipc[1], ipc[1] / alone[i]);
        std::fflush(stdout);
      }
    return 0;
  }
  // The allocating process, as the referee does: its context is made once the other has timed
  // alone. A timing process that ends early closes the pipes' last writers, and a read says so.
  close(to_child[0]);
  close(to_parent[1]);
  char go;
  if (read(to_parent[0], &go, 1) != 1) return 2;
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < n; ++i) {
      const std::uint64_t bytes = bytes_of(kCases[i]);
      for (int off = 0; off < 2; ++off) {
        const std::uint64_t total = off ? padded(bytes) : bytes;
        void *a, *b;
        CK(cudaMalloc(&a, total));
        CK(cudaMalloc(&b, total));
        CK(cudaMemset(a, 1, total));
        cudaIpcMemHandle_t h[2];
        CK(cudaIpcGetMemHandle(&h[0], a));
        CK(cudaIpcGetMemHandle(&h[1], b));
        if (write(to_child[1], h, sizeof h) != sizeof h) return 2;
        char done;
        if (read(to_parent[0], &done, 1) != 1) return 2;
        CK(cudaFree(a));
        CK(cudaFree(b));
      }
    }
  int status = 0;
  waitpid(pid, &status, 0);
  return WEXITSTATUS(status);
}
