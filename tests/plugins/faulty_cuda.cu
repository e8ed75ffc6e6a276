// CUDA plugins for the runner's failure paths on a GPU, one fault each (KBT_FAULT): an
// out-of-bounds write that loses the context, a kernel that never ends, a 1 TB allocation, and
// (built for another architecture only) no code for this device. "none" is correct: y = x + 1.
#include <kbench/plugin.hpp>
#include <kbench/support/adapter.hpp>

#include <cstring>

namespace {

#define KBT_IS(fault) (std::strcmp(KBT_FAULT, fault) == 0)

__global__ void add_one(const int* x, int* y, long long n, long long write_offset, int forever) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  while (forever) {
    // volatile read: the loop cannot be proven endless and removed.
    if (*(volatile const int*)x == 0x7fffffff) break;
  }
  if (i < n) y[i + write_offset] = x[i] + 1;
}

template <typename T>
class Problem {
 public:
  Problem(const kb_case& c, kb_device_kind where, kb_work& work)
      : n(c.shape[0]),
        host_x(kb::random_vector<int>(static_cast<std::size_t>(n), c.seed, 1)),
        x(where, static_cast<std::size_t>(n)),
        y(where, static_cast<std::size_t>(n)) {
    if (KBT_IS("huge_alloc")) kb::Array<char> terabyte(where, std::size_t{1} << 40);
    x.upload(host_x);
    work.bytes = 8.0 * n;
  }
  void poison(cudaStream_t stream) { y.poison(stream); }
  kb_verification verify() const {
    kb::HostVector<int> expected(host_x);
    for (int& v : expected) v += 1;
    const auto got = y.download();
    return kb::compare_exact(got.data(), expected.data(), expected.size());
  }

  const long long n;
  const kb::HostVector<int> host_x;
  kb::Array<int> x, y;
};

template <typename T>
struct Strategy {
  static void launch(const Problem<T>& p, kb::Launcher& launch) {
    // Far outside any allocation: an illegal address, not a silent corruption.
    const long long offset = KBT_IS("illegal_address") ? (1ll << 40) : 0;
    launch(add_one, dim3(static_cast<unsigned>((p.n + 255) / 256)), dim3(256), 0, p.x.data(),
           const_cast<int*>(p.y.data()), p.n, offset, KBT_IS("endless_kernel") ? 1 : 0);
  }
};

}  // namespace

KBENCH_PLUGIN(Problem, Strategy, kb::DTypes<std::int32_t>,
              {KBT_NAME, "1", "CUDA test plugin: " KBT_FAULT, KB_DEVICE_CUDA,
               KB_FLAG_OWN_LAUNCH_SHAPE})
