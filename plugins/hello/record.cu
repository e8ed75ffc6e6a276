// Seed 000's Hello World as data: instead of printing, every thread records who it is, which SM
// ran it, when it started and ended, and in which order it arrived, so the family's check can
// answer the seed's question about output order with numbers.
#include <kbench/families/hello.hpp>

namespace {

__device__ std::uint64_t globaltimer() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

__device__ std::uint32_t smid() {
  std::uint32_t id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

__global__ void hello_record(kb::hello::Record* records, std::uint32_t* counter,
                             std::uint32_t threads, std::uint64_t life_ns) {
  const std::uint64_t start = globaltimer();
  const std::uint32_t ticket = atomicAdd(counter, 1u);
  // The last arrival resets the counter: every other thread has taken its ticket by then, and the
  // next launch on the stream starts after this one ends. So a launch is this one kernel, with
  // no memset before it in the timed region.
  if (ticket == threads - 1) atomicExch(counter, 0u);
  std::uint64_t end = start;
  while (end - start < life_ns) end = globaltimer();
  const std::uint32_t lane = threadIdx.x + threadIdx.y * blockDim.x;
  records[std::size_t{blockIdx.x} * (blockDim.x * blockDim.y) + lane] =
      kb::hello::Record{blockIdx.x, static_cast<std::uint16_t>(threadIdx.x),
                        static_cast<std::uint16_t>(threadIdx.y), smid(), ticket, start, end};
}

// The arrival counter is the strategy's own: zero at prepare, reset by each launch's last thread.
template <typename T>
struct HelloRecord {
  explicit HelloRecord(const kb::hello::Operands<T>&) : counter(KB_DEVICE_CUDA, 1) {
    counter.upload({0u});
  }

  void launch(const kb::hello::Operands<T>& p, kb::Launcher& launch) {
    launch(hello_record, p.geometry.grid(), p.geometry.block(), 0, p.records(), counter.data(),
           p.geometry.threads(), kb::hello::kLifeNs);
  }

  kb::Array<std::uint32_t> counter;
};

}  // namespace

KBENCH_STRATEGY(kb::hello::Operands, HelloRecord, kb::NoDTypes,
                {.name = "hello/record",
                 .version = "1",
                 .description = "seed 000 as data: per thread SM, arrival ticket and start/end "
                                "time; order metrics",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_NONDETERMINISTIC,
                 .accepts = kb::hello::accepts})
