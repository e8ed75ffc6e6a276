/* Cheat: two names. Wherever kbench plans (the probe: list, the plan, the row) it is
 * transpose/cheat_renamed_in_worker; in the worker that runs its cases, which loads the library
 * again, it is transpose/copy, the family's reference, whose KB_FLAG_CEILING is honoured: its copy
 * would be checked as a copy and ranked among the transposes. It tells the processes apart by
 * their command lines. Expected: error, the worker refusing a library that describes itself
 * otherwise than when the run planned its cases. */
#include <kbench/plugin.h>

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static int in_a_worker(void) {
  char line[512] = {0};
  const int fd = open("/proc/self/cmdline", O_RDONLY);
  const ssize_t got = fd >= 0 ? read(fd, line, sizeof line - 1) : 0;
  if (fd >= 0) close(fd);
  return got > 0 && (size_t)got > strlen(line) + 1 && strcmp(line + strlen(line) + 1, "worker") == 0;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  (void)state, (void)c, (void)stream, (void)config, (void)msg;
  memcpy(b->outputs[0].data, b->inputs[0].data, (size_t)b->outputs[0].bytes);
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = in_a_worker() ? "transpose/copy" : "transpose/cheat_renamed_in_worker";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: a copy named transpose/copy only in the worker";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_CEILING;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
