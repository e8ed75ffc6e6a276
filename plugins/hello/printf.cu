// Seed 000's Hello World: every thread prints one line with device printf, the host prints one.
// The family captures the standard output of a checked launch and checks the lines.
#include <kbench/families/hello.hpp>

#include <cstdio>

namespace {

__global__ void hello_printf() {
  printf("Hello World from Thread (%d, %d) in Block %d!\n", static_cast<int>(threadIdx.x),
         static_cast<int>(threadIdx.y), static_cast<int>(blockIdx.x));
}

template <typename T>
struct HelloPrintf {
  // Room in this process's printf FIFO for every line of a launch: the lines of the threads that
  // do not fit are lost, and the family counts them missing.
  explicit HelloPrintf(const kb::hello::Operands<T>& p) {
    kb::hello::reserve_printf_fifo(p.geometry.threads());
  }

  static void launch(const kb::hello::Operands<T>& p, kb::Launcher& launch) {
    launch(hello_printf, p.geometry.grid(), p.geometry.block(), 0);
    // As in the seed, the host speaks while the kernel runs. Flushed at once: the worker's stdout
    // is a file, fully buffered, and the line must land in this launch's capture.
    std::printf("%s\n", kb::hello::kHostLine);
    std::fflush(stdout);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::hello::Operands, HelloPrintf, kb::NoDTypes,
                {.name = "hello/printf",
                 .version = "1",
                 .description = "seed 000: every thread printf()s its block and thread index, the "
                                "host one line",
                 .device = KB_DEVICE_CUDA,
                 .accepts = kb::hello::accepts})
