/*
 * kbench plugin ABI.
 *
 * Two kinds of shared library meet here. A *strategy* (a plugin) exports `kbench_plugin`,
 * returning a `KernelPlugin`: a kernel idea and its launch. A *family* exports `kbench_family`,
 * returning a `KernelFamily`: the referee of every strategy of that family. Both structs live as
 * long as their library stays loaded; the runner reads each once, when it loads the library, and
 * keeps its own copy (a later write to the struct changes nothing; a worker refuses a library that
 * describes itself otherwise than it did when the run was planned). What a strategy is handed (the
 * case, the buffers) is a copy of its own: written through, it changes nothing the runner or the
 * family sees. Only plain C types cross this boundary: no C++ objects, no
 * exceptions, no memory that one side allocates and the other frees. This header is usable from
 * C, C++ and CUDA and needs nothing but the C standard headers.
 *
 * Life of one case of a version 3 strategy, as the runner drives it (always from one host thread):
 *
 *   family.accepts(case), strategy.accepts(case)   may the runner plan this case at all?
 *   family.create(case) -> buffers                 the family allocates the inputs and outputs
 *   family.work(case)                              the bytes and FLOPs of one launch, from the shape
 *   family.draw(seed)                              inputs from a seed the strategy never sees (the
 *                                                  sweep's, mixed with a secret of the case)
 *   strategy.prepare(case, buffers) -> state       optional: scratch, a library handle, a plan
 *   strategy.run(state, buffers, stream) xN        timed; each call enqueues exactly one execution;
 *                                                  now and then a timed launch is preceded by
 *                                                  family.poison and followed by family.check
 *   family.draw(fresh seed), poison, run, check    the verdict: inputs the strategy has not seen
 *   poison, run, check                             again: the two outputs must be bit-identical
 *                                                  (unless KB_FLAG_NONDETERMINISTIC), and the
 *                                                  inputs unchanged by every launch
 *   family.draw(fresh seed, KB_DRAW_NEAR), run,    last, where the case has inputs: the inputs
 *   check                                          changed in a few places, the output not
 *                                                  poisoned before the launch, which is timed:
 *                                                  far over the median, the timed launches
 *                                                  did less than a launch on new inputs
 *   strategy.release(state), family.destroy        free everything
 *
 * The strategy never sees the seed (kb_case.seed is 0 for it), the reference or the verdict, and
 * never counts its own work: a strategy that does less than the case asks cannot make its row
 * `ok` (docs/plugin-abi.md has the checks and what each catches).
 *
 * Version 1 and 2 plugins are their own referees: `setup` allocates and fills the inputs from
 * kb_case.seed and counts the work, `launch` runs, `poison` and `verify` judge, `teardown` frees.
 * They keep running; their rows say `referee` = `plugin`.
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
 * order or size. The loader serves versions 1 to 3 (a version 1 KernelPlugin ends at teardown and
 * its plugins read kb_case up to verbose; a version 2 one ends at param_count) and refuses every
 * other version.
 * Version 2 added the family descriptor (kb_family), parameters (kb_param, kb_case.params) and the
 * float16, bfloat16 and int8 data types.
 * Version 3 made the family the referee: KernelFamily, kb_buffers, and a strategy's prepare, run
 * and release in place of setup, poison, verify and teardown. */
#define KB_ABI_VERSION 3
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
  KB_DTYPE_I8 = 1u << 6,
  KB_DTYPE_I64 = 1u << 7   /* version 3: an operand's element type only (reduce's integer sums),
                              never a case's data type */
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
/* Version 3: two launches on the same inputs may leave outputs that differ bit for bit
 * (floating-point atomics): the runner then does not ask for identical outputs. The family's
 * check still holds each output to its tolerance. */
#define KB_FLAG_NONDETERMINISTIC (1u << 7)
/* Version 3: the strategy is its family's memory ceiling, not its operation: it copies the inputs
 * to the outputs byte for byte (transpose/copy), and the family checks a copy. Honoured only for the
 * strategy the family names as its reference (kb_family.reference); any other is checked on the
 * family's operation, and its row says the flag was ignored. */
#define KB_FLAG_CEILING (1u << 8)
/* Version 3: the strategy reads its outputs before it writes them (C = alpha * A * B + beta * C,
 * atomics into a sum): the runner zeroes every output before each launch it times or checks,
 * outside the timed region, so the fill is in no median. Each sample is then one launch, as under
 * --cold. The zeroing is the runner's own (a memset of the buffers it handed), never the
 * strategy's, and it overwrites the family's poison: a launch must still write every output. */
#define KB_FLAG_ZEROED_OUTPUTS (1u << 9)
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
  uint64_t seed;      /* versions 1 and 2: inputs are a pure function of (seed, shape, dtype);
                         0 for a version 3 strategy, which never draws inputs */
  int32_t device;     /* CUDA device ordinal, already current when a hook is called */
  int32_t verbose;    /* non-zero: the user asked to see what the plugin captured (--show);
                         verify may print it on standard error */
  /* ABI version 2 */
  const char* params; /* the value of each of the plugin's parameters, in its declared order:
                         "tile=256;vec=4"; "" when it has none */
} kb_case;

/* The work of one launch, counted by the family (by setup in versions 1 and 2): the runner turns
 * it into GB/s and GFLOP/s, and holds them to what the device can do. */
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

/* ---- ABI version 3: the family's buffers ------------------------------------------------------ */

#define KB_MAX_OPERANDS 4

/* One array of a case, allocated by the family. */
typedef struct kb_operand {
  void* data;      /* device memory for a CUDA strategy, host memory for a host one */
  uint64_t count;  /* elements */
  uint64_t bytes;  /* count times the element's size */
  kb_dtype dtype;  /* the element's type (matmul: bfloat16 inputs multiply into a float32 C) */
} kb_operand;

/* What a strategy computes on. Inputs are read-only: a launch that writes them fails its case.
 * The family reads the outputs after the runner synchronised the stream the strategy was given.
 * Which operand is which is the family's documented layout (transpose: inputs[0] is the rows x
 * cols matrix, outputs[0] its cols x rows transpose; see docs/families/). The pointers do not
 * change between prepare and release. */
typedef struct kb_buffers {
  uint32_t input_count;
  kb_operand inputs[KB_MAX_OPERANDS];
  uint32_t output_count;
  kb_operand outputs[KB_MAX_OPERANDS];
} kb_buffers;

/* family.draw's purpose: the inputs the timed launches run on, or a redraw made only to check.
 * A family may draw check inputs differently (reduce: values whose sums are exact in every order,
 * so any element a launch skips shows). */
#define KB_DRAW_TIMED 0u
#define KB_DRAW_CHECK 1u
/* The inputs of the last timed or check draw with a few elements changed, at positions drawn from
 * `seed`; the family's check then covers every output they reach. A strategy that skips its work
 * when its inputs look as before where it looks shows. A family built before this purpose existed
 * draws fresh inputs for it, as for another purpose. */
#define KB_DRAW_NEAR 2u

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

  /* ABI version 3: a strategy. setup, poison, verify and teardown stay NULL, and family_info too:
   * the family's own library (a KernelFamily of the family this plugin's name starts with) owns
   * the case. */

  /* Optional (NULL: no state of its own). Builds what the strategy keeps across launches: scratch
   * memory, a library handle, a plan, descriptors of the buffers. Must not compute results: the
   * inputs are redrawn after it. On failure nothing stays allocated. */
  kb_status (*prepare)(const kb_case* c, const kb_buffers* buffers, void** state,
                       kb_message* msg);

  /* Enqueues exactly one execution on `stream` (a cudaStream_t; NULL for host strategies, which
   * run synchronously) and returns without synchronising. Reads the inputs, writes the outputs,
   * every time: the runner times it, poisons the outputs before some launches and checks them
   * after. All of its device work goes on `stream`. `state` is what prepare made (NULL without
   * prepare). */
  kb_status (*run)(void* state, const kb_case* c, const kb_buffers* buffers, void* stream,
                   kb_launch_config* config, kb_message* msg);

  /* Optional: frees what prepare made. Never fails. */
  void (*release)(void* state);
} KernelPlugin;

/* The size of a version 1 KernelPlugin: everything before family_info; of a version 2 one:
 * everything before prepare. */
#define KB_PLUGIN_SIZE_V1 offsetof(KernelPlugin, family_info)
#define KB_PLUGIN_SIZE_V2 offsetof(KernelPlugin, prepare)

/* The one symbol every plugin exports. */
typedef const KernelPlugin* (*kb_plugin_entry)(void);
#define KB_ENTRY_SYMBOL "kbench_plugin"

/* ---- ABI version 3: the family, the referee of its strategies ----------------------------------
 *
 * A family's library exports `kbench_family` and nothing of a strategy. The runner finds it among
 * the plugin folders (the build's own folder first: a second library naming the same family is
 * refused), and only ever lets it see the case: the strategy's code runs in the same process but
 * never between draw and check. In-tree families live in plugins/<family>/family.cu (built with
 * kbench_add_family); a family from outside ships its own library beside its strategies
 * (examples/out_of_tree_family/scan). docs/plugin-abi.md has the life of a case and the checks. */
typedef struct KernelFamily {
  uint32_t abi_version;  /* KB_ABI_VERSION the family was compiled with (3 or later) */
  uint32_t struct_size;  /* sizeof(KernelFamily) it was compiled with */

  const kb_family* info; /* its description: name, rank, default sweep, headline... */
  const char* version;   /* the referee's own version: bumped when its inputs, work or check
                            change, so rows of two versions are not compared unawares */
  uint32_t dtypes;       /* bit mask of kb_dtype: the data types it can referee */
  const char* ops;       /* its operations, comma-separated ("sum,sumsq"); "" for one */

  /* Optional (NULL accepts every case of its dtypes and ops). Pure, no device work. */
  int (*accepts)(const kb_case* c, kb_message* why);

  /* The fewest bytes one launch must move and the operations it must do, from the case alone.
   * Pure, no allocation: the runner also counts a version 1 or 2 plugin's work with it. */
  kb_status (*work)(const kb_case* c, kb_work* work, kb_message* msg);

  /* Allocates the case's operands where the strategy computes (device memory for
   * KB_DEVICE_CUDA, host memory for KB_DEVICE_HOST) and describes them in `buffers`. */
  kb_status (*create)(const kb_case* c, kb_device_kind where, void** state, kb_buffers* buffers,
                      kb_message* msg);

  /* Fills the inputs from `seed` (never all zeros) and readies the reference for them;
   * `purpose` is KB_DRAW_TIMED or KB_DRAW_CHECK. Returns with the inputs in place (the runner
   * synchronises the device after it). */
  kb_status (*draw)(void* state, uint64_t seed, uint32_t purpose, void* stream, kb_message* msg);

  /* Overwrites the outputs with values no correct launch produces. */
  kb_status (*poison)(void* state, void* stream, kb_message* msg);

  /* Checks the outputs against the reference of the last draw, after the runner synchronised the
   * launch. `strategy_flags` are the strategy's KB_FLAG_* (its declared math: a strategy on TF32
   * tensor cores is held to TF32's tolerance). KB_VERIFY_FAILED with the details in `result`
   * when the output is wrong; another status when it could not check. */
  kb_status (*check)(void* state, uint32_t strategy_flags, void* stream, kb_verification* result,
                     kb_message* msg);

  /* Frees everything create allocated. Never fails. */
  void (*destroy)(void* state);
} KernelFamily;

typedef const KernelFamily* (*kb_family_entry)(void);
#define KB_FAMILY_ENTRY_SYMBOL "kbench_family"

#ifdef __cplusplus
}
#endif

#endif /* KBENCH_PLUGIN_H */
