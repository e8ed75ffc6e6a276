// A CUDA test plugin whose time is a knob: each of a fixed grid of threads runs a chain of n
// dependent steps of a 32-bit LCG (n = the case's size), times KBT_SLOWDOWN from the environment
// (default 1; 1.03 = 3% more steps). Every thread does the same work and the grid does not depend
// on n, so the kernel's time is a constant plus n times the time of one step: a known slowdown of
// a real kernel, for checking that `kbench compare` flags it (scripts/gpu-check.sh gate) and does
// not flag identical runs. The output is checked against the LCG's closed form (jump-ahead), not
// by running the loop again.
#include <kbench/plugin.hpp>
#include <kbench/support/adapter.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

constexpr std::uint32_t kMultiplier = 1664525u, kIncrement = 1013904223u;  // Numerical Recipes
constexpr unsigned kBlocks = 1024, kThreads = 256;

// Thread i's first value.
__host__ __device__ std::uint32_t start_of(std::uint32_t seed, unsigned i) {
  return seed ^ (i * 0x9E3779B9u);
}

__global__ void lcg_chain(std::uint32_t* out, std::uint32_t seed, long long steps) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  std::uint32_t x = start_of(seed, i);
  for (long long s = 0; s < steps; ++s) x = x * kMultiplier + kIncrement;
  out[i] = x;
}

// n steps of the LCG at once: (a, c) composed with itself by squaring (F. Brown, "Random number
// generation with arbitrary strides", 1994).
std::uint32_t jump_ahead(std::uint32_t x, long long steps) {
  std::uint32_t a = 1, c = 0, step_a = kMultiplier, step_c = kIncrement;
  for (auto n = static_cast<unsigned long long>(steps); n > 0; n >>= 1) {
    if (n & 1) {
      a *= step_a;
      c = c * step_a + step_c;
    }
    step_c *= step_a + 1;
    step_a *= step_a;
  }
  return a * x + c;
}

long long slowed(long long steps) {
  const char* knob = std::getenv("KBT_SLOWDOWN");
  if (knob == nullptr || *knob == '\0') return steps;
  char* end = nullptr;
  const double factor = std::strtod(knob, &end);
  if (*end != '\0' || !(factor > 0 && factor < 1000)) {
    throw std::invalid_argument(std::string("KBT_SLOWDOWN='") + knob +
                                "' is not a factor in (0, 1000)");
  }
  return std::llround(static_cast<double>(steps) * factor);
}

template <typename T>
class Problem {
 public:
  Problem(const kb_case& c, kb_device_kind where, kb_work& work)
      : steps(slowed(c.shape[0])),
        seed(static_cast<std::uint32_t>(c.seed)),
        out(where, kBlocks * kThreads) {
    work.bytes = 4.0 * kBlocks * kThreads;
  }
  void poison(cudaStream_t stream) { out.poison(stream); }
  kb_verification verify() const {
    kb::HostVector<std::uint32_t> expected(kBlocks * kThreads);
    for (unsigned i = 0; i < expected.size(); ++i) {
      expected[i] = jump_ahead(start_of(seed, i), steps);
    }
    const auto got = out.download();
    return kb::compare_exact(got.data(), expected.data(), expected.size());
  }

  const long long steps;
  const std::uint32_t seed;
  kb::Array<std::uint32_t> out;
};

template <typename T>
struct Strategy {
  static void launch(const Problem<T>& p, kb::Launcher& launch) {
    launch(lcg_chain, dim3(kBlocks), dim3(kThreads), 0, const_cast<std::uint32_t*>(p.out.data()),
           p.seed, p.steps);
  }
};

}  // namespace

KBENCH_PLUGIN(Problem, Strategy, kb::DTypes<std::int32_t>,
              {"slowdown/lcg", "1", "CUDA test plugin: n LCG steps per thread, times KBT_SLOWDOWN",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE})
