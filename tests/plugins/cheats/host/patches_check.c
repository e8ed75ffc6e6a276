/* Cheat: patches its referee's machine code. Where the family's library is loaded in the same
 * process, prepare makes the code of the family's check writable and executable and writes over
 * it "result->passed = 1; return KB_OK" (x86-64). The strategy does no work. Expected:
 * verify_failed, check 'timed launch': the family runs in the referee process, and the worker
 * makes no page executable once its strategy is loaded. */
#define _GNU_SOURCE
#include <kbench/plugin.h>

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int patch(struct dl_phdr_info* object, size_t size, void* patched) {
  (void)size;
  void* library = dlopen(object->dlpi_name[0] ? object->dlpi_name : NULL, RTLD_NOW | RTLD_NOLOAD);
  kb_family_entry entry = library ? (kb_family_entry)dlsym(library, KB_FAMILY_ENTRY_SYMBOL) : NULL;
#if defined(__x86_64__)
  if (entry != NULL && entry()->check != NULL) {
    /* mov dword ptr [rcx], 1; xor eax, eax; ret: the result is the fourth argument. */
    static const unsigned char passes[] = {0xC7, 0x01, 0x01, 0x00, 0x00, 0x00, 0x31, 0xC0, 0xC3};
    const long page = sysconf(_SC_PAGESIZE);
    unsigned char* code = (unsigned char*)entry()->check;
    const uintptr_t start = (uintptr_t)code & ~(uintptr_t)(page - 1);
    if (mprotect((void*)start, (size_t)(2 * page), PROT_READ | PROT_WRITE | PROT_EXEC) == 0) {
      memcpy(code, passes, sizeof passes);
      *(int*)patched = 1;
    }
  }
#else
  (void)entry, (void)patched;
#endif
  if (library) dlclose(library);
  return 0;
}

static kb_status prepare(const kb_case* c, const kb_buffers* b, void** state, kb_message* msg) {
  int patched = 0;
  (void)c, (void)b, (void)msg;
  *state = NULL;
  dl_iterate_phdr(patch, &patched);
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
  p.name = "transpose/cheat_patches_check";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: writes a check that passes everything over its family's code";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.prepare = prepare;
  p.run = run;
  return &p;
}
