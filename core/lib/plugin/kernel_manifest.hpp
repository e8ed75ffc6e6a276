// A kernel file (`kbench run --kernel FILE`): a kernel as CUDA source (compiled before the run by
// nvcc or NVRTC), PTX, cubin or fatbin, and the manifest that says how to run it as a strategy of
// a family: the launches of a case (one or more, each its entry point, each kernel parameter's
// role — a family operand, an extent, a scalar, a knob, a scratch buffer — and its grid, block and
// shared memory as formulas of the case), the data types, math and knobs.
// The manifest is JSON, beside the file (FILE.json or STEM.json) or, for a .cu, in a comment
// block at its top (`/* kbench { ... } */`); docs/kernel-files.md describes every key.
//
// Everything here is host code without a device: reading and checking a manifest, binding it to
// its family, the case's acceptance, each variant's compile options and entry, each case's launch.
// Compiling, loading and launching live in core/lib/kernel.
#pragma once

#include "case/case_request.hpp"
#include "plugin/formula.hpp"
#include "plugin/plugin_info.hpp"

#include <kbench/plugin.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kb {

enum class KernelFormat { source, ptx, cubin, fatbin };
const char* format_name(KernelFormat format);  // "cu", "ptx", "cubin", "fatbin"

// What a kernel parameter receives.
enum class ArgRole { input, output, extent, scalar, knob, scratch };
const char* role_name(ArgRole role);
// Its C type: a pointer for operands and scratch, a number otherwise.
enum class ArgType { pointer, i32, i64, u32, u64, f32, f64 };
const char* type_name(ArgType type);  // "pointer", "int32", ...
std::size_t type_size(ArgType type);
bool is_float(ArgType type);

// When a buffer is set to zero: never, once per case (scratch's default), before every launch
// inside it (an output or scratch a kernel accumulates into with atomics), or before every launch
// by the runner, outside the timed region (a family's output a kernel reads: `beta * C`; the
// strategy then declares KB_FLAG_ZEROED_OUTPUTS).
enum class ZeroWhen { never, once, each_launch, untimed };

struct KernelArg {
  ArgRole role = ArgRole::input;
  ArgType type = ArgType::pointer;
  std::string name;  // the extent's or knob's name; for others what the manifest calls it
  int index = 0;     // input/output: which of the family's operands
  Formula value;     // scalar: its value (a formula; see number)
  std::optional<double> number;  // scalar: a JSON number, for a floating-point scalar
  Formula bytes;     // scratch: its size in bytes (0: a null pointer)
  ZeroWhen zero = ZeroWhen::never;
  // scratch: the buffer another launch's parameter of this name declared (no bytes of its own).
  bool shared = false;
  // scratch: the family's output it holds after the last launch (-1: none), from element
  // `result_at`, each element of `result_type` (KB_DTYPE_NONE: the case's data type); kbench
  // copies it there, widened where the types differ (int32 into int64).
  int result_of = -1;
  Formula result_at;
  bool sized_by_result = false;  // as many elements as the family's output (an output's "element")
  bool bytes_in_elements = false;  // `bytes` counts elements of result_type (an output's "elements")
  kb_dtype result_type = KB_DTYPE_NONE;
  // "parameter 3 (extent 'rows', int32)"
  std::string describe(std::size_t position) const;
};

// A knob: swept like a block. In a .cu it reaches the kernel as a template argument where the
// entry names it ({tile}), else as a define (-DTILE=32); in any kernel as an argument ("knob"
// role) and in the formulas.
struct KernelKnob {
  std::string name, define, description;
  std::vector<std::string> values, choices;
  bool numeric = true;  // every value and choice an integer: usable in formulas and as an argument
  // A knob whose value is a formula of the case ("rows < 128 ? 64 : 128", "is_pow2(n)"): not
  // swept, not a parameter, but a template argument, define and name like any other.
  std::optional<Formula> formula;
};

// One launch of a case: its entry, parameters, grid, block, cluster and shared memory.
struct KernelStep {
  std::string entry;  // a kernel name, or (.cu) a name expression; {T}, {op}, {knob} filled
  std::vector<KernelArg> args;
  std::vector<Formula> grid, block, cluster;  // one to three each; cluster empty: no cluster
  Formula shared_bytes;                       // dynamic shared memory per block
};

struct KernelManifest {
  std::string file;           // the kernel file, absolute
  std::string manifest_file;  // where its manifest was: a .json beside it, or the file itself
  KernelFormat format = KernelFormat::source;
  std::string contents;       // the kernel file's bytes
  std::string sha256;         // of those bytes, as sha256sum prints it; with a manifest file of
                              // its own, of the bytes, "\0kbench manifest\0" and the manifest's

  std::string name, family, description;
  std::uint32_t dtypes = 0;
  std::vector<std::string> ops;  // empty until bound: then the family's, or those listed
  std::uint32_t flags = 0;  // KB_FLAG_MATH_*, _NONDETERMINISTIC, _OWN_LAUNCH_SHAPE, _ZEROED_OUTPUTS
  std::vector<KernelStep> launches;   // in order, each case; the top level's keys are one launch
  std::vector<Formula> requirements;  // "requires": each non-zero, or the case is refused
  std::vector<KernelKnob> knobs;
  // .cu: the name the case's C type is given, `typedef float T;` before the source, unless the
  // entry takes it as a template argument ({T}); "" for none.
  std::string type_alias = "T";
  std::vector<std::pair<std::string, std::string>> defines;  // .cu: -DNAME=VALUE
  std::vector<std::string> options;                          // .cu: more compiler options
  // .cu: "nvcc", "nvrtc", or "auto": nvcc where the toolkit has it, else NVRTC
  // (KBENCH_KERNEL_COMPILER=nvcc|nvrtc decides "auto" instead).
  std::string compiler = "auto";

  std::vector<std::string> shape_names;  // the family's ("rows", "cols"), once bound
  bool block_from_case() const { return !(flags & KB_FLAG_OWN_LAUNCH_SHAPE); }
};

// Reads FILE and its manifest and checks the manifest alone (keys, roles, types, formulas): one
// strategy, or each of its "strategies" (objects of the keys in which each differs from the top
// level, each with its name). Throws InputError("FILE: what is wrong"), one line.
std::vector<KernelManifest> read_kernel_manifests(const std::string& file);
// The one named `name` ("family/NAME"); the first where `name` is empty.
KernelManifest read_kernel_manifest(const std::string& file, const std::string& name = "");

// Checks the manifest against its family (the family library's description: shape names, data
// types, operations) and completes it (ops). Throws InputError("FILE: what is wrong").
void bind_to_family(KernelManifest& manifest, const PluginInfo& family);

// The part the runner plans and runs like a version 3 strategy of the family: name, data types,
// knobs as parameters, the manifest's math; `kind` = kernel, `version` the hash's first 12 digits.
PluginInfo kernel_part(std::shared_ptr<const KernelManifest> manifest,
                       std::shared_ptr<const PluginInfo> referee);

// The manifest's acceptance rule for a case: its `requires`, and each extent within the type of
// the parameter it is passed as. False with the reason in `why`.
bool kernel_accepts(const KernelManifest& manifest, const CaseRequest& request, std::string& why);

// One compiled form of the kernel: what a case's data type, operation and knobs make of it.
struct KernelVariant {
  std::vector<std::string> entries;  // each launch's, resolved: "transpose_tiled<float, 32, 8>"
  // .cu: what the case puts before the source ("typedef float T;", and for float16 and bfloat16
  // the header of the type) and adds to the compiler's options ("-DTILE=32", "-DKB_OP_SUM=1").
  std::string prelude;
  std::vector<std::string> options;
  // Equal keys: the same code (the cache and the build share a variant between cases).
  std::string key() const;
};
KernelVariant kernel_variant(const KernelManifest& manifest, const CaseRequest& request);

// One launch of a case, from the manifest's formulas.
struct KernelLaunch {
  std::array<std::uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1}, cluster{1, 1, 1};
  bool clustered = false;
  std::uint64_t shared_bytes = 0;
  // Per kernel parameter: an extent's, scalar's or knob's value, or a scratch buffer's bytes
  // (integer; real for a floating-point type).
  struct Value {
    std::int64_t integer = 0;
    double real = 0;
  };
  std::vector<Value> values;
};
// Each launch of a case, in order. `sms`: the device's multiprocessors (the `sms` of the
// formulas). Throws InputError naming the formula and the case when one cannot be evaluated,
// gives a dimension out of range, or is a `requires` of the grid that does not hold.
std::vector<KernelLaunch> kernel_launches(const KernelManifest& manifest, const CaseRequest& request,
                                          int sms);

// The C type a data type is given as: "float", "double", "int", "__half", "__nv_bfloat16",
// "signed char".
const char* c_type_name(kb_dtype dtype);

// How a kernel's parameter list looks to a compiler or a driver: each parameter's size, and
// whether it is known to be a floating-point ('f') or integer ('i') value ('?' when unknown).
struct KernelParam {
  std::size_t bytes = 0;
  char kind = '?';
};
// What differs between a launch's parameter list and its kernel's; "" when they agree.
std::string compare_params(const KernelStep& step, const std::vector<KernelParam>& kernel,
                           const std::string& source);

// The C types each data type and the names a kernel file's manifest may call its element types.
kb_dtype element_type_of(const std::string& name);  // "int32", "int", "float" ...; NONE if unknown

}  // namespace kb
