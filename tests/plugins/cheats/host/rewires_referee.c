/* Cheat: rewires its referee. Where the family's library is loaded in the same process, prepare
 * finds it among the loaded objects, calls its kbench_family() and writes a check that passes
 * everything into the KernelFamily it returns (made writable first). The strategy does no work.
 * Expected: verify_failed, check 'timed launch': the family runs in the referee process, which
 * loads no strategy, so there is nothing here to rewire. */
#define _GNU_SOURCE
#include <kbench/plugin.h>

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static kb_status passes_everything(void* state, uint32_t flags, void* stream,
                                   kb_verification* result, kb_message* msg) {
  (void)state, (void)flags, (void)stream, (void)msg;
  memset(result, 0, sizeof *result);
  result->passed = 1;
  return KB_OK;
}

static int rewire(struct dl_phdr_info* object, size_t size, void* rewired) {
  (void)size;
  void* library = dlopen(object->dlpi_name[0] ? object->dlpi_name : NULL, RTLD_NOW | RTLD_NOLOAD);
  kb_family_entry entry = library ? (kb_family_entry)dlsym(library, KB_FAMILY_ENTRY_SYMBOL) : NULL;
  if (entry != NULL) {
    KernelFamily* family = (KernelFamily*)entry();
    const long page = sysconf(_SC_PAGESIZE);
    const uintptr_t start = (uintptr_t)family & ~(uintptr_t)(page - 1);
    const uintptr_t end = ((uintptr_t)(family + 1) + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1);
    if (family && mprotect((void*)start, end - start, PROT_READ | PROT_WRITE) == 0) {
      family->check = passes_everything;
      *(int*)rewired = 1;
    }
  }
  if (library) dlclose(library);
  return 0;
}

static kb_status prepare(const kb_case* c, const kb_buffers* b, void** state, kb_message* msg) {
  int rewired = 0;
  (void)c, (void)b;
  *state = NULL;
  (void)msg;
  dl_iterate_phdr(rewire, &rewired);
  return KB_OK;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  (void)state, (void)c, (void)b, (void)stream, (void)config, (void)msg;
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_rewires_referee";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: writes a check that passes everything into its family's descriptor";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.prepare = prepare;
  p.run = run;
  return &p;
}
