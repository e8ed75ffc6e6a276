// Cheat (CUDA): slows the events' clock. The worker reads a sample's time with
// cudaEventElapsedTime, called through a slot of the kbench executable's relocation table; prepare
// points that slot to a function that scales every elapsed time by 0.7, first by making the table
// writable (mprotect), else by writing through /proc/self/mem. It transposes honestly, but only
// where a slot was rewritten, so that a refused rewrite shows as a failed check. Written against
// plugin.h and the CUDA runtime alone. Expected: verify_failed, check 'timed launch' (the worker's
// relocation tables cannot be changed once its strategy is loaded).
#include <kbench/plugin.h>

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#ifndef KB_CUDA_ARCHS
#define KB_CUDA_ARCHS ""
#endif

namespace {

using ElapsedTime = cudaError_t (*)(float*, cudaEvent_t, cudaEvent_t);
ElapsedTime real_elapsed = nullptr;
bool rewritten = false;

cudaError_t scaled_elapsed(float* ms, cudaEvent_t start, cudaEvent_t stop) {
  const cudaError_t error = real_elapsed(ms, start, stop);
  *ms *= 0.7f;
  return error;
}

std::uintptr_t absolute(std::uintptr_t value, std::uintptr_t base) {
  return value < base ? value + base : value;
}

// The address of the executable's relocation slot for `symbol`, 0 when it has none.
std::uintptr_t slot_of(const char* symbol) {
  link_map* program = nullptr;
  void* self = dlopen(nullptr, RTLD_NOW);
  if (self == nullptr || dlinfo(self, RTLD_DI_LINKMAP, &program) != 0) return 0;
  const std::uintptr_t base = program->l_addr;
  const ElfW(Sym)* symbols = nullptr;
  const char* names = nullptr;
  const ElfW(Rela)* tables[2] = {nullptr, nullptr};
  std::size_t sizes[2] = {0, 0};
  for (const ElfW(Dyn)* d = program->l_ld; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB: symbols = reinterpret_cast<const ElfW(Sym)*>(absolute(d->d_un.d_ptr, base)); break;
      case DT_STRTAB: names = reinterpret_cast<const char*>(absolute(d->d_un.d_ptr, base)); break;
      case DT_JMPREL: tables[0] = reinterpret_cast<const ElfW(Rela)*>(absolute(d->d_un.d_ptr, base)); break;
      case DT_PLTRELSZ: sizes[0] = d->d_un.d_val; break;
      case DT_RELA: tables[1] = reinterpret_cast<const ElfW(Rela)*>(absolute(d->d_un.d_ptr, base)); break;
      case DT_RELASZ: sizes[1] = d->d_un.d_val; break;
    }
  }
  if (symbols == nullptr || names == nullptr) return 0;
  for (int t = 0; t < 2; ++t) {
    for (std::size_t i = 0; tables[t] != nullptr && i < sizes[t] / sizeof(ElfW(Rela)); ++i) {
      const std::size_t index = ELF64_R_SYM(tables[t][i].r_info);
      if (index != 0 && std::strcmp(names + symbols[index].st_name, symbol) == 0) {
        return base + tables[t][i].r_offset;
      }
    }
  }
  return 0;
}

void rewrite(std::uintptr_t slot) {
  void* fake = reinterpret_cast<void*>(scaled_elapsed);
  const long page = sysconf(_SC_PAGESIZE);
  if (mprotect(reinterpret_cast<void*>(slot & ~static_cast<std::uintptr_t>(page - 1)),
               static_cast<std::size_t>(page), PROT_READ | PROT_WRITE) == 0) {
    std::memcpy(reinterpret_cast<void*>(slot), &fake, sizeof fake);
    rewritten = true;
    return;
  }
  const int memory = open("/proc/self/mem", O_RDWR);
  if (memory >= 0) {
    rewritten = pwrite(memory, &fake, sizeof fake, static_cast<off_t>(slot)) ==
                static_cast<ssize_t>(sizeof fake);
    close(memory);
  }
}

__global__ void transpose(const std::uint32_t* in, std::uint32_t* out, std::int64_t rows,
                          std::int64_t cols) {
  const std::int64_t c = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::int64_t r = std::int64_t{blockIdx.y} * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

kb_status prepare(const kb_case*, const kb_buffers*, void** state, kb_message*) {
  *state = nullptr;
  if (!rewritten) {
    real_elapsed = reinterpret_cast<ElapsedTime>(dlsym(RTLD_DEFAULT, "cudaEventElapsedTime"));
    const std::uintptr_t slot = slot_of("cudaEventElapsedTime");
    if (real_elapsed != nullptr && slot != 0) rewrite(slot);
  }
  return KB_OK;
}

kb_status run(void*, const kb_case* c, const kb_buffers* b, void* stream, kb_launch_config* config,
              kb_message* msg) {
  const std::int64_t rows = c->shape[0], cols = c->shape[1];
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 7) / 8));
  *config = kb_launch_config{{grid.x, grid.y, 1}, {block.x, block.y, 1}, 1};
  if (!rewritten) return KB_OK;
  transpose<<<grid, block, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<const std::uint32_t*>(b->inputs[0].data),
      static_cast<std::uint32_t*>(b->outputs[0].data), rows, cols);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::snprintf(msg->text, sizeof msg->text, "%s", cudaGetErrorString(e));
    return KB_ERROR;
  }
  return KB_OK;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p = [] {
    KernelPlugin q{};
    q.abi_version = KB_ABI_VERSION;
    q.struct_size = sizeof(KernelPlugin);
    q.name = "transpose/cheat_scaled_events";
    q.family = "transpose";
    q.version = "1";
    q.description = "red team: points the worker's cudaEventElapsedTime slot to a scaled clock";
    q.device = KB_DEVICE_CUDA;
    q.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
    q.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
    q.ops = "";
    q.cuda_archs = KB_CUDA_ARCHS;
    q.prepare = prepare;
    q.run = run;
    return q;
  }();
  return &p;
}
