/* kbench
{
  // An SGEMM as tutorials publish it: a templated kernel whose block computes a BM x BN tile of
  // C, each thread a TM x TN patch of it in registers, and host code that picks the tile by the
  // matrix's size and launches it. kbench picks the tile as that host code does (a knob that is a
  // formula of the case), compiles the file with nvcc as it is and times the kernel alone.
  // C = alpha * A * B + beta * C reads C: with beta = 0 a poisoned C would still reach the
  // result (NaN * 0), so kbench zeroes the output before each launch, outside the timed region
  // ("zero": "untimed").
  "family": "matmul",
  "description": "register-tiled SGEMM, tutorial style: template tile, host launch code",
  "dtypes": "float32",
  "math": "simt",
  "knobs": [{"name": "tile", "formula": "M >= 1024 && N >= 1024 ? 128 : 64"}],
  "entry": "sgemm_tiled<{tile}, {tile}, 8, 8, 8>",
  "params": ["M", "N", "K",
             {"role": "scalar", "name": "alpha", "type": "float32", "value": 1.0},
             "input:0", "input:1",
             {"role": "scalar", "name": "beta", "type": "float32", "value": 0.0},
             {"role": "output", "index": 0, "zero": "untimed"}],
  "block": "(tile / 8) * (tile / 8)",
  "grid": ["N / tile", "M / tile"],
  "requires": ["M % tile == 0", "N % tile == 0", "(K & 7) == 0"],
  // Two strategies of the one file: the launcher's choice, and its small tile at every size.
  "strategies": [
    {"name": "sgemm_tiled"},
    {"name": "sgemm_tiled_64", "knobs": [{"name": "tile", "formula": 64}],
     "description": "the same SGEMM, 64 x 64 tiles at every size"}
  ]
}
*/
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

// A block loads BM x BK of A (transposed into shared memory) and BK x BN of B per step along K;
// each thread multiplies a column of TM values of A by a row of TN values of B from registers.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemm_tiled(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                float* C) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  __shared__ float As[BK][BM];
  __shared__ float Bs[BK][BN];
  const int col = threadIdx.x % (BN / TN);
  const int row = threadIdx.x / (BN / TN);
  const float* a = A + static_cast<size_t>(blockIdx.y) * BM * K;
  const float* b = B + blockIdx.x * BN;
  float acc[TM][TN] = {};
  float ra[TM], rb[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += kThreads) {
      As[i % BK][i / BK] = a[static_cast<size_t>(i / BK) * K + k0 + i % BK];
    }
    for (int i = threadIdx.x; i < BK * BN; i += kThreads) {
      Bs[i / BN][i % BN] = b[static_cast<size_t>(k0 + i / BN) * N + i % BN];
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i) ra[i] = As[k][row * TM + i];
      for (int j = 0; j < TN; ++j) rb[j] = Bs[k][col * TN + j];
      for (int i = 0; i < TM; ++i) {
        for (int j = 0; j < TN; ++j) acc[i][j] += ra[i] * rb[j];
      }
    }
    __syncthreads();
  }
  float* c = C + static_cast<size_t>(blockIdx.y * BM + row * TM) * N + blockIdx.x * BN + col * TN;
  for (int i = 0; i < TM; ++i) {
    for (int j = 0; j < TN; ++j) {
      c[static_cast<size_t>(i) * N + j] = alpha * acc[i][j] + beta * c[static_cast<size_t>(i) * N + j];
    }
  }
}

// The tutorial's launcher: 128 x 128 tiles for large matrices, 64 x 64 below.
void run_sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
               float* C) {
  if (M >= 1024 && N >= 1024) {
    sgemm_tiled<128, 128, 8, 8, 8><<<dim3(CEIL_DIV(N, 128), CEIL_DIV(M, 128)), 256>>>(
        M, N, K, alpha, A, B, beta, C);
  } else {
    sgemm_tiled<64, 64, 8, 8, 8><<<dim3(CEIL_DIV(N, 64), CEIL_DIV(M, 64)), 64>>>(
        M, N, K, alpha, A, B, beta, C);
  }
}

int main() {
  const int n = 1024;
  std::vector<float> ones(static_cast<size_t>(n) * n, 1.0f);
  float *A = nullptr, *B = nullptr, *C = nullptr;
  cudaMalloc(&A, ones.size() * sizeof(float));
  cudaMalloc(&B, ones.size() * sizeof(float));
  cudaMalloc(&C, ones.size() * sizeof(float));
  cudaMemcpy(A, ones.data(), ones.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(B, ones.data(), ones.size() * sizeof(float), cudaMemcpyHostToDevice);
  run_sgemm(n, n, n, 1.0f, A, B, 0.0f, C);
  float corner = 0;
  cudaMemcpy(&corner, C, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("C[0] = %g (expected %d)\n", corner, n);
  return corner == n ? 0 : 1;
}
