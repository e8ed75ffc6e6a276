/* kbench/plugin.h as ABI version 2 shipped it (commit d641773), kept so the tests build true
 * version 2 plugins (the self-refereed test plugins, header_only.cu, plain_c.c) and check that the
 * loader still serves them and marks their rows as refereed by the plugin. */
/*
 * kbench plugin ABI.
 *
 * A plugin is a shared library that exports one C symbol, `kbench_plugin`, returning a pointer to
 * a `KernelPlugin` that lives as long as the library stays loaded. Only plain C types cross this
 * boundary: no C++ objects, no exceptions, no memory that one side allocates and the other frees.
 * This header is usable from C, C++ and CUDA and needs nothing but the C standard headers.
 *
 * Life of one case, as the runner drives it (always from one host thread):
 *
 *   accepts(case)             may the runner plan this case at all? (pure, no device work)
 *   setup(case) -> state      allocate, fill inputs deterministically from case->seed
 *   launch(state, stream) xN  timed; each call enqueues exactly one execution
 *   poison(state, stream)     overwrite the output with a sentinel
 *   launch(state, stream)     the launch that gets verified
 *   verify(state)             compare the output with an independent reference
 *   teardown(state)           free everything setup allocated
 *
 * Errors come back as a kb_status with a human-readable text in the kb_message the runner
 * passes in; a hook never exits the process and never lets an exception escape.
 */
#ifndef KBENCH_PLUGIN_H
#define KBENCH_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a field of KernelPlugin, kb_case or another struct here changes meaning,
 * order or size. The loader serves version 2 and version 1 (whose KernelPlugin ends at teardown
 * and whose plugins read kb_case up to verbose), and refuses every other version.
 * Version 2 added the family descriptor (kb_family), parameters (kb_param, kb_case.params) and the
 * float16, bfloat16 and int8 data types. */
#define KB_ABI_VERSION 2
#define KB_ABI_VERSION_OLDEST 1

#if defined(_WIN32)
#define KB_EXPORT __declspec(dllexport)
#else
#define KB_EXPORT __attribute__((visibility("default")))
#endif

typedef enum kb_status {
  KB_OK = 0,
  KB_ERROR = 1,          /* anything else that went wrong; the message says what */
  KB_UNSUPPORTED = 2,    /* the plugin cannot run this case here (architecture, library...) */
  KB_OOM = 3,            /* an allocation failed: not sticky, the next case may still run */
  KB_VERIFY_FAILED = 4   /* returned only by verify: the output is wrong */
} kb_status;

typedef enum kb_device_kind {
  KB_DEVICE_CUDA = 0,  /* launch enqueues work on a CUDA stream; timed with CUDA events */
  KB_DEVICE_HOST = 1   /* launch runs synchronously on the host CPU; timed with a steady clock */
} kb_device_kind;

/* Data types, used one at a time in kb_case.dtype and as a bit mask in KernelPlugin.dtypes. */
typedef enum kb_dtype {
  KB_DTYPE_NONE = 1u << 0, /* the family has no data (hello) */
  KB_DTYPE_F32 = 1u << 1,
  KB_DTYPE_F64 = 1u << 2,
  KB_DTYPE_I32 = 1u << 3,
  KB_DTYPE_F16 = 1u << 4,  /* IEEE binary16 (CUDA's __half) */
  KB_DTYPE_BF16 = 1u << 5, /* bfloat16 (CUDA's __nv_bfloat16) */
  KB_DTYPE_I8 = 1u << 6
} kb_dtype;

/* KernelPlugin.flags */
#define KB_FLAG_OWN_LAUNCH_SHAPE (1u << 0) /* the plugin chooses its own block shape (cuBLAS, CUB,
                                              copies): the runner plans it once per problem shape,
                                              with block = {0, 0, 0} */
#define KB_FLAG_SYNCHRONIZES (1u << 1)     /* launch waits for the device itself (it finishes on
                                              the host, say): the runner then cannot hold the
                                              stream back to hide launch latency, and times the
                                              launch call as it is */

/* The arithmetic a plugin's flops run on (at most one of these): the peak its GFLOP/s are held to,
 * both for fraction_of_peak and for the plausibility check that calls a rate above that peak
 * `implausible`. A plugin that sets none is held to the SIMT peak of its data type for
 * fraction_of_peak, but never called implausible on its FLOP/s alone (it may use tensor cores). */
#define KB_FLAG_MATH_SIMT (1u << 2) /* CUDA cores at the data type's own precision (FMA) */
#define KB_FLAG_MATH_TF32 (1u << 3) /* tensor cores, TF32 operands */
#define KB_FLAG_MATH_BF16 (1u << 4) /* tensor cores, BF16 operands */
#define KB_FLAG_MATH_FP16 (1u << 5) /* tensor cores, FP16 operands */
#define KB_FLAG_MATH_FP64_TENSOR (1u << 6) /* float64 cases may run on the FP64 tensor cores (IEEE
                                              double results, twice the SIMT FP64 rate on Hopper):
                                              they are held to that unit's peak; other types as
                                              KB_FLAG_MATH_SIMT (cuBLAS's DGEMM) */
#define KB_FLAG_MATH_MASK                                                                    \
  (KB_FLAG_MATH_SIMT | KB_FLAG_MATH_TF32 | KB_FLAG_MATH_BF16 | KB_FLAG_MATH_FP16 |          \
   KB_FLAG_MATH_FP64_TENSOR)

#define KB_MESSAGE_CAPACITY 1024
#define KB_METRICS_CAPACITY 512

/* A text buffer owned by the runner. A hook that fails writes a NUL-terminated explanation. */
typedef struct kb_message {
  char text[KB_MESSAGE_CAPACITY];
} kb_message;

/* What a family is: how its cases are shaped and swept, and what it is measured against. A family
 * is described once, by any plugin of it (in-tree families: by their family header); the runner
 * takes the first description it finds and knows no family by name. */
typedef struct kb_family {
  const char* name;           /* the part of a plugin name before '/', e.g. "transpose" */
  int32_t rank;               /* shape entries a case uses, 1 to 3 */
  const char* shape_names;    /* what each entry means, comma-separated: "rows,cols" */
  const char* default_sizes;  /* the sweep of a plain `kbench run`: "2048,8192,8192x4096" */
  const char* default_blocks; /* "32x8,16x16"; "" when every plugin chooses its own */
  const char* default_dtypes; /* "float32,float64"; "none" for a family without data */
  const char* check_sizes;    /* small, odd sizes `kbench validate` runs: "33x31" */
  const char* check_blocks;   /* and the blocks it offers them with: "16x16,32x8" */
  const char* headline;       /* what reports lead with: "gbps", "gflops" or "time" */
  const char* reference;      /* the plugin the family is measured against, "transpose/copy";
                                 "" when none */
} kb_family;

/* A knob of a plugin, swept like sizes and blocks: every case has one value of each. */
typedef struct kb_param {
  const char* name;        /* letters, digits and '_': "tile" */
  const char* values;      /* the values a plain sweep takes, comma-separated: "512" */
  const char* choices;     /* every value --param may ask for: "128,256,512"; "" when any value
                              goes (accepts() then refuses those it cannot take) */
  const char* description; /* one line */
} kb_param;

/* One case. Owned by the runner; valid for the duration of the call it is passed to (a plugin
 * that needs it later copies what it needs in setup). */
typedef struct kb_case {
  kb_dtype dtype;
  const char* op;     /* one of KernelPlugin.ops, or "" when the plugin lists none */
  int32_t rank;       /* number of used entries in shape: hello 1 (n), transpose 2 (rows, cols),
                         matmul 3 (M, N, K), reduce 1 (n) */
  int64_t shape[3];
  int32_t block[3];   /* threads per block in x, y, z; {0,0,0} with KB_FLAG_OWN_LAUNCH_SHAPE */
  uint64_t seed;      /* inputs are a pure function of (seed, shape, dtype) */
  int32_t device;     /* CUDA device ordinal, already current when a hook is called */
  int32_t verbose;    /* non-zero: the user asked to see what the plugin captured (--show);
                         verify may print it on standard error */
  /* ABI version 2 */
  const char* params; /* the value of each of the plugin's parameters, in its declared order:
                         "tile=256;vec=4"; "" when it has none */
} kb_case;

/* The work of one launch, filled by setup: the runner turns it into GB/s and GFLOP/s. */
typedef struct kb_work {
  double bytes;  /* the fewest bytes one launch must move through device memory */
  double flops;  /* floating-point (or integer arithmetic) operations of one launch */
} kb_work;

/* The configuration a launch enqueued, filled by launch (all zeros when the plugin does not know,
 * as with a vendor library). */
typedef struct kb_launch_config {
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t kernels;  /* kernels enqueued by one launch call (a two-pass reduction says 2) */
} kb_launch_config;

/* The outcome of verify. */
typedef struct kb_verification {
  int32_t passed;          /* non-zero when every checked element is within tolerance */
  double max_rel_error;    /* largest relative error seen (0 for exact families) */
  double tolerance;        /* the bound the error was held to (0 means exact) */
  uint64_t checked;        /* how many output elements were compared */
  char metrics[KB_METRICS_CAPACITY]; /* optional family metrics, "key=value;key=value" */
} kb_verification;

typedef struct KernelPlugin {
  uint32_t abi_version;  /* KB_ABI_VERSION the plugin was compiled with */
  uint32_t struct_size;  /* sizeof(KernelPlugin) the plugin was compiled with */

  const char* name;         /* unique "family/strategy", e.g. "transpose/shared_padded" */
  const char* family;       /* the part of name before '/' */
  const char* version;      /* the strategy's own version, bumped when its kernel changes */
  const char* description;  /* one line */
  kb_device_kind device;
  uint32_t dtypes;          /* bit mask of kb_dtype */
  uint32_t flags;           /* KB_FLAG_* */
  const char* ops;          /* comma-separated operations the family defines (reduce: "sum,sumsq");
                               "" when the family has a single operation */
  const char* cuda_archs;   /* architectures the device code was built for, e.g. "sm_90,compute_90";
                               "" for host plugins */

  /* Optional (NULL accepts every case whose dtype and op the plugin lists). Returns non-zero when
   * the case can run; otherwise writes the reason to why. Must not touch the device. */
  int (*accepts)(const kb_case* c, kb_message* why);

  /* Allocates everything the case needs and fills the inputs. *state is the plugin's own; the
   * runner only passes it back. On failure nothing stays allocated. */
  kb_status (*setup)(const kb_case* c, void** state, kb_work* work, kb_message* msg);

  /* Overwrites the output with a value no correct launch produces. `stream` is a cudaStream_t
   * (NULL for host plugins). */
  kb_status (*poison)(void* state, void* stream, kb_message* msg);

  /* Enqueues exactly one execution on `stream` and returns without synchronising (host plugins
   * run synchronously). Idempotent: two launches leave the same output as one, so any
   * accumulator is reset inside launch. No allocation, no host-device copy of inputs. All of its
   * device work goes on `stream`: the runner's events are recorded there, and it checks (by
   * capturing one launch) that the work is really there. */
  kb_status (*launch)(void* state, void* stream, kb_launch_config* config, kb_message* msg);

  /* Called after the runner synchronised the stream following a launch. Returns KB_OK when the
   * output is right, KB_VERIFY_FAILED when it is wrong (the details in result), another status
   * when it could not check. The runner also records KB_OK with result->passed == 0 as a failed
   * verification. */
  kb_status (*verify)(void* state, kb_verification* result, kb_message* msg);

  /* Frees everything setup allocated. Never fails. */
  void (*teardown)(void* state);

  /* ABI version 2 */
  const kb_family* family_info; /* the family's description, or NULL: another plugin gives it */
  const kb_param* params;       /* param_count knobs, swept like blocks; NULL when none */
  uint32_t param_count;
} KernelPlugin;

/* The size of a version 1 KernelPlugin: everything before family_info. */
#define KB_PLUGIN_SIZE_V1 offsetof(KernelPlugin, family_info)

/* The one symbol every plugin exports. */
typedef const KernelPlugin* (*kb_plugin_entry)(void);
#define KB_ENTRY_SYMBOL "kbench_plugin"

#ifdef __cplusplus
}
#endif

#endif /* KBENCH_PLUGIN_H */
