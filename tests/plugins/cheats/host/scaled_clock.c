/* Cheat: slows the clock that times it. The worker times a host strategy with
 * std::chrono::steady_clock::now(), called through a slot of the kbench executable's relocation
 * table; prepare points that slot to a clock that runs at half speed, first by making the table
 * writable (mprotect), else by writing through /proc/self/mem. It transposes honestly, but only
 * where a slot was rewritten, so that a refused rewrite shows as a failed check. Expected:
 * verify_failed, check 'timed launch': the worker's relocation tables cannot be made writable,
 * mapped over or written through /proc once its strategy is loaded. */
#define _GNU_SOURCE
#include <kbench/plugin.h>

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static const char kNow[] = "_ZNSt6chrono3_V212steady_clock3nowEv";
static int rewritten = 0;

static int64_t half_speed_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return ((int64_t)now.tv_sec * 1000000000 + now.tv_nsec) / 2;
}

static uintptr_t absolute(uintptr_t value, uintptr_t base) { return value < base ? value + base : value; }

/* The address of the executable's relocation slot for `symbol`, 0 when it has none. */
static uintptr_t slot_of(const char* symbol) {
  struct link_map* program = NULL;
  void* self = dlopen(NULL, RTLD_NOW);
  if (self == NULL || dlinfo(self, RTLD_DI_LINKMAP, &program) != 0) return 0;
  const uintptr_t base = program->l_addr;
  const ElfW(Sym)* symbols = NULL;
  const char* names = NULL;
  const ElfW(Rela)* tables[2] = {NULL, NULL};
  size_t sizes[2] = {0, 0};
  for (const ElfW(Dyn)* d = program->l_ld; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB: symbols = (const ElfW(Sym)*)absolute(d->d_un.d_ptr, base); break;
      case DT_STRTAB: names = (const char*)absolute(d->d_un.d_ptr, base); break;
      case DT_JMPREL: tables[0] = (const ElfW(Rela)*)absolute(d->d_un.d_ptr, base); break;
      case DT_PLTRELSZ: sizes[0] = d->d_un.d_val; break;
      case DT_RELA: tables[1] = (const ElfW(Rela)*)absolute(d->d_un.d_ptr, base); break;
      case DT_RELASZ: sizes[1] = d->d_un.d_val; break;
    }
  }
  if (symbols == NULL || names == NULL) return 0;
  for (int t = 0; t < 2; ++t) {
    for (size_t i = 0; tables[t] != NULL && i < sizes[t] / sizeof(ElfW(Rela)); ++i) {
      const ElfW(Rela)* r = &tables[t][i];
      const size_t index = ELF64_R_SYM(r->r_info);
      if (index != 0 && strcmp(names + symbols[index].st_name, symbol) == 0) {
        return base + r->r_offset;
      }
    }
  }
  return 0;
}

static void rewrite(uintptr_t slot) {
  void* fake = (void*)half_speed_now;
  const long page = sysconf(_SC_PAGESIZE);
  if (mprotect((void*)(slot & ~(uintptr_t)(page - 1)), (size_t)page, PROT_READ | PROT_WRITE) == 0) {
    memcpy((void*)slot, &fake, sizeof fake);
    rewritten = 1;
    return;
  }
  const int memory = open("/proc/self/mem", O_RDWR);
  if (memory >= 0) {
    rewritten = pwrite(memory, &fake, sizeof fake, (off_t)slot) == (ssize_t)sizeof fake;
    close(memory);
  }
}

static kb_status prepare(const kb_case* c, const kb_buffers* b, void** state, kb_message* msg) {
  (void)c, (void)b, (void)msg;
  *state = NULL;
  const uintptr_t slot = slot_of(kNow);
  if (slot != 0 && !rewritten) rewrite(slot);
  return KB_OK;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t rows = c->shape[0], cols = c->shape[1];
  const uint32_t* in = (const uint32_t*)b->inputs[0].data;
  uint32_t* out = (uint32_t*)b->outputs[0].data;
  (void)state, (void)stream, (void)config, (void)msg;
  if (!rewritten) return KB_OK;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t col = 0; col < cols; ++col) out[col * rows + r] = in[r * cols + col];
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_scaled_clock";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: points the worker's clock slot to a clock at half speed";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.prepare = prepare;
  p.run = run;
  return &p;
}
