// Kernel files on the host, no device: their manifests read and bound to a family, each case's
// acceptance, variant (entry, type, defines) and launch, the parameter checks against PTX, the
// cache's keys and entries, SHA-256, and NVRTC compiling a good and a broken .cu to PTX.
#include "kernel/code_cache.hpp"
#include "kernel/cubin_image.hpp"
#include "kernel/nvcc.hpp"
#include "kernel/kernel_build.hpp"
#include "kernel/kernel_module.hpp"
#include "kernel/nvrtc.hpp"
#include "kernel/ptx_entry.hpp"
#include "plugin/kernel_manifest.hpp"
#include "support/kbench_process.hpp"
#include "util/input_error.hpp"
#include "util/sha256.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>

namespace {

namespace fs = boost::filesystem;
using namespace kb;

std::string example(const std::string& name) {
  return std::string(KBENCH_SOURCE_DIR) + "/examples/kernels/" + name;
}

PluginInfo family(const std::string& name, const std::string& shapes, int rank,
                  std::uint32_t dtypes, const std::string& ops = "") {
  PluginInfo f;
  f.kind = PartKind::family;
  f.name = f.family = name;
  f.dtypes = dtypes;
  f.ops = ops;
  FamilyInfo info;
  info.name = name;
  info.rank = rank;
  info.shape_names = shapes;
  f.family_info = info;
  return f;
}

constexpr std::uint32_t kEvery = KB_DTYPE_F32 | KB_DTYPE_F64 | KB_DTYPE_I32 | KB_DTYPE_F16 |
                                 KB_DTYPE_BF16 | KB_DTYPE_I8;
PluginInfo transpose_family() { return family("transpose", "rows,cols", 2, kEvery); }
PluginInfo reduce_family() { return family("reduce", "n", 1, kEvery, "sum,sumsq"); }

KernelManifest bound(const std::string& file, const PluginInfo& f) {
  KernelManifest m = read_kernel_manifest(file);
  bind_to_family(m, f);
  return m;
}

CaseRequest request(kb_dtype dtype, std::vector<std::int64_t> shape, std::vector<int> block,
                    const std::string& params = "", const std::string& op = "") {
  CaseRequest r;
  r.dtype = dtype;
  r.op = op;
  r.shape.rank = static_cast<int>(shape.size());
  for (std::size_t i = 0; i < shape.size(); ++i) r.shape.dims[i] = shape[i];
  for (std::size_t i = 0; i < block.size(); ++i) r.block.dims[i] = block[i];
  r.params = params;
  return r;
}

std::string write(const fs::path& file, const std::string& text) {
  std::ofstream(file.string(), std::ios::binary) << text;
  return file.string();
}

// An environment variable set for a test's duration.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    if (const char* was = std::getenv(name)) was_ = was;
    setenv(name, value, 1);
  }
  ~ScopedEnvironment() {
    if (was_) {
      setenv(name_, was_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> was_;
};

// The InputError a manifest is refused with ("" when it is not).
std::string refusal(const std::string& file, const PluginInfo& f) {
  try {
    bound(file, f);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Sha256, MatchesTheStandardsVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(KernelManifest, TheSeedsTileReadsFromItsComment) {
  const KernelManifest m = bound(example("transpose_tile.cu"), transpose_family());
  EXPECT_EQ(m.name, "transpose/transpose_tile");
  EXPECT_EQ(m.format, KernelFormat::source);
  EXPECT_EQ(m.manifest_file, m.file);
  EXPECT_EQ(m.sha256, sha256_hex(kbtest::read_file(example("transpose_tile.cu"))));
  ASSERT_EQ(m.launches.size(), 1u);
  EXPECT_EQ(m.launches[0].entry, "transpose_tile");
  EXPECT_EQ(m.dtypes, KB_DTYPE_F32 | KB_DTYPE_F64 | KB_DTYPE_I32);
  ASSERT_EQ(m.launches[0].args.size(), 4u);
  EXPECT_EQ(m.launches[0].args[0].role, ArgRole::input);
  EXPECT_EQ(m.launches[0].args[1].role, ArgRole::output);
  EXPECT_EQ(m.launches[0].args[2].role, ArgRole::extent);
  EXPECT_EQ(m.launches[0].args[2].type, ArgType::i64);
  EXPECT_TRUE(m.block_from_case());
  EXPECT_TRUE(m.ops.empty());

  const PluginInfo part = kernel_part(std::make_shared<KernelManifest>(m), nullptr);
  EXPECT_EQ(part.kind, PartKind::kernel);
  EXPECT_EQ(part.version, m.sha256.substr(0, 12));
  EXPECT_TRUE(part.refereed_by_family());
  EXPECT_EQ(part.device, KB_DEVICE_CUDA);
  EXPECT_FALSE(part.flags & KB_FLAG_OWN_LAUNCH_SHAPE);
}

// A manifest of its own beside the kernel is part of the kernel's version: the hash covers both,
// so an edited launch (grid, block, shared memory) is a new version as an edited kernel is.
TEST(KernelManifest, AManifestBesideTheKernelIsInItsHash) {
  const kbtest::TempFolder dir;
  const std::string tile = kbtest::read_file(example("transpose_tile.cu"));
  const std::size_t open = tile.find("/* kbench"), close = tile.find("*/", open);
  const std::string json = tile.substr(open + 9, close - open - 9);
  const std::string file = write(dir.path() / "k.cu", tile.substr(close + 2));
  write(dir.path() / "k.cu.json", json);
  const KernelManifest m = bound(file, transpose_family());
  EXPECT_EQ(m.manifest_file, file + ".json");
  EXPECT_NE(m.sha256, sha256_hex(kbtest::read_file(file)));
  EXPECT_EQ(m.sha256.size(), 64u);
  EXPECT_EQ(bound(file, transpose_family()).sha256, m.sha256);
  const std::string edited = std::string(json).replace(json.find("cdiv(cols, bx)"), 14, "cdiv(cols, by)");
  write(dir.path() / "k.cu.json", edited);
  EXPECT_NE(bound(file, transpose_family()).sha256, m.sha256);
}

TEST(KernelManifest, ACaseIsAcceptedAsItsRequiresSay) {
  const KernelManifest m = bound(example("transpose_tile.cu"), transpose_family());
  std::string why;
  EXPECT_TRUE(kernel_accepts(m, request(KB_DTYPE_F32, {33, 31}, {32, 32, 1}), why)) << why;
  EXPECT_FALSE(kernel_accepts(m, request(KB_DTYPE_F32, {33, 31}, {32, 8, 1}), why));
  EXPECT_EQ(why, "the manifest requires bx == by");
  EXPECT_FALSE(kernel_accepts(m, request(KB_DTYPE_F32, {33, 31}, {64, 64, 1}), why));
  EXPECT_EQ(why, "the manifest requires bx <= 32");
}

TEST(KernelManifest, ACaseLaunchesAsItsFormulasSay) {
  const KernelManifest m = bound(example("transpose_tile.cu"), transpose_family());
  const KernelLaunch l = kernel_launches(m, request(KB_DTYPE_F64, {33, 31}, {32, 32, 1}), 132).front();
  EXPECT_EQ(l.grid, (std::array<std::uint32_t, 3>{1, 2, 1}));
  EXPECT_EQ(l.block, (std::array<std::uint32_t, 3>{32, 32, 1}));
  EXPECT_FALSE(l.clustered);
  EXPECT_EQ(l.shared_bytes, 32u * 33u * 8u);
  ASSERT_EQ(l.values.size(), 4u);
  EXPECT_EQ(l.values[2].integer, 33);
  EXPECT_EQ(l.values[3].integer, 31);
  // A grid the device cannot launch: 65535 rows of tiles at most.
  try {
    kernel_launches(m, request(KB_DTYPE_F32, {65536LL * 32, 32}, {32, 32, 1}), 132);
    ADD_FAILURE() << "a grid of 65536 in y launched";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is 65536, not 1 to 65535"), std::string::npos) << e.what();
  }
}

TEST(KernelManifest, TheTypeIsATypedefAndKnobsInTheEntryAreTemplateArguments) {
  const KernelManifest tile = bound(example("transpose_tile.cu"), transpose_family());
  KernelVariant v = kernel_variant(tile, request(KB_DTYPE_F64, {33, 31}, {32, 32, 1}));
  EXPECT_EQ(v.entries, std::vector<std::string>{"transpose_tile"});
  EXPECT_EQ(v.prelude, "typedef double T;\n");
  EXPECT_TRUE(v.options.empty());

  const KernelManifest tiled = bound(example("transpose_tiled.cu"), transpose_family());
  EXPECT_FALSE(tiled.block_from_case());
  ASSERT_EQ(tiled.knobs.size(), 2u);
  v = kernel_variant(tiled, request(KB_DTYPE_I32, {64, 64}, {}, "tile=16;per_thread=2"));
  EXPECT_EQ(v.entries, std::vector<std::string>{"transpose_tiled<int, 16, 2>"});
  EXPECT_EQ(v.prelude, "");  // {T} in the entry: no typedef
  EXPECT_TRUE(v.options.empty());
  const KernelLaunch l = kernel_launches(tiled, request(KB_DTYPE_I32, {64, 64}, {}, "tile=16;per_thread=2"), 1).front();
  EXPECT_EQ(l.block, (std::array<std::uint32_t, 3>{16, 8, 1}));
  EXPECT_EQ(l.grid, (std::array<std::uint32_t, 3>{4, 4, 1}));
  std::string why;
  EXPECT_FALSE(kernel_accepts(tiled, request(KB_DTYPE_F32, {64, 64}, {}, "tile=64;per_thread=1"), why));
  EXPECT_EQ(why, "the manifest requires tile * tile / per_thread <= 1024");

  const PluginInfo part = kernel_part(std::make_shared<KernelManifest>(tiled), nullptr);
  EXPECT_TRUE(part.flags & KB_FLAG_OWN_LAUNCH_SHAPE);
  ASSERT_EQ(part.params.size(), 2u);
  EXPECT_EQ(part.params[0].name, "tile");
  EXPECT_EQ(part.params[0].values, (std::vector<std::string>{"32"}));
  EXPECT_EQ(part.params[0].choices, (std::vector<std::string>{"16", "32", "64"}));
}

TEST(KernelManifest, TheReduceTakesItsOperationAsAScalarAndScratchFromTheGrid) {
  const KernelManifest m = bound(example("reduce_last_block.cu"), reduce_family());
  EXPECT_EQ(m.ops, (std::vector<std::string>{"sum", "sumsq"}));
  EXPECT_TRUE(m.flags & KB_FLAG_MATH_SIMT);
  const KernelLaunch sumsq = kernel_launches(m, request(KB_DTYPE_I32, {1 << 20}, {256, 1, 1}, "", "sumsq"), 132).front();
  EXPECT_EQ(sumsq.grid[0], 1024u);  // min(cdiv(2^20, 1024), 132 * 8)
  EXPECT_EQ(sumsq.values[3].integer, 1);
  EXPECT_EQ(sumsq.values[4].integer, 16 + 1024 * 8);
  const KernelLaunch sum = kernel_launches(m, request(KB_DTYPE_I32, {1 << 28}, {256, 1, 1}, "", "sum"), 132).front();
  EXPECT_EQ(sum.grid[0], 1056u);
  EXPECT_EQ(sum.values[3].integer, 0);
  // The operation is a run-time argument: one compiled variant serves both.
  EXPECT_EQ(kernel_variant(m, request(KB_DTYPE_F32, {100}, {256}, "", "sum")).key(),
            kernel_variant(m, request(KB_DTYPE_F32, {100}, {256}, "", "sumsq")).key());
}

TEST(KernelManifest, DefinesReachASourceThatNamesThem) {
  const kbtest::TempFolder dir;
  const std::string file = write(dir.path() / "k.cu", R"K(/* kbench
{ "family": "reduce", "entry": "k", "dtypes": ["float32"],
  "params": ["input:0", "output:0", "n"],
  "knobs": [{"name": "unroll", "values": [2, 4]}, {"name": "unused", "values": [1, 2]}],
  "defines": {"EXTRA": 3, "FLAG": ""},
  "block": 256, "grid": "cdiv(n, 256 * unroll)" } */
extern "C" __global__ void k(const T* in, T* out, int n) {
#if KB_OP_SUMSQ
  out[0] = UNROLL * EXTRA;
#endif
}
)K");
  const KernelManifest m = bound(file, reduce_family());
  const KernelVariant v = kernel_variant(m, request(KB_DTYPE_F32, {100}, {}, "unroll=4;unused=2", "sumsq"));
  EXPECT_EQ(v.options, (std::vector<std::string>{"-DUNROLL=4", "-DKB_OP_SUMSQ=1", "-DEXTRA=3", "-DFLAG"}));
  // A knob the source never names makes no variant of its own.
  EXPECT_EQ(v.key(), kernel_variant(m, request(KB_DTYPE_F32, {100}, {}, "unroll=4;unused=1", "sumsq")).key());
  EXPECT_NE(v.key(), kernel_variant(m, request(KB_DTYPE_F32, {100}, {}, "unroll=2;unused=2", "sumsq")).key());
}

TEST(KernelManifest, AManifestBesideTheFileAndTheDefaultNames) {
  const kbtest::TempFolder dir;
  const std::string ptx = write(dir.path() / "tile.ptx", ".version 9.0\n.target sm_90\n.visible .entry k(\n.param .u64 a\n)\n{ ret; }\n");
  write(dir.path() / "tile.json", R"K({"family": "transpose", "entry": "k", "dtypes": "float32",
      "params": ["output:0"], "block": [32, 8], "grid": ["cdiv(cols, 32)", "cdiv(rows, 32)"]})K");
  KernelManifest m = bound(ptx, transpose_family());
  EXPECT_EQ(m.name, "transpose/tile_ptx");
  EXPECT_EQ(m.format, KernelFormat::ptx);
  EXPECT_EQ(m.manifest_file, (dir.path() / "tile.json").string());
  // FILE.json comes before STEM.json.
  write(dir.path() / "tile.ptx.json", R"K({"family": "transpose", "name": "mine", "entry": "k",
      "dtypes": "float32", "params": ["output:0"], "block": 256, "grid": 1})K");
  m = bound(ptx, transpose_family());
  EXPECT_EQ(m.name, "transpose/mine");
  EXPECT_EQ(m.manifest_file, (dir.path() / "tile.ptx.json").string());
}

TEST(KernelManifest, ParametersAreHeldToThePtxs) {
  const std::string ptx = R"K(
.version 9.0
.target sm_90
.address_size 64
	// .globl	plain
.visible .entry plain(
	.param .u64 .ptr .global .align 1 plain_param_0,
	.param .u32 plain_param_1,
	.param .f64 plain_param_2
)
{ ret; }
.visible .entry _Z8bystruct1SPf(
	.param .align 8 .b8 _Z8bystruct1SPf_param_0[16],
	.param .u64 _Z8bystruct1SPf_param_1
)
{ ret; }
.visible .entry empty()
{ ret; }
)K";
  EXPECT_EQ(ptx_entries(ptx), (std::vector<std::string>{"plain", "_Z8bystruct1SPf", "empty"}));
  const auto plain = ptx_entry_params(ptx, "plain");
  ASSERT_TRUE(plain);
  ASSERT_EQ(plain->size(), 3u);
  EXPECT_EQ((*plain)[0].bytes, 8u);
  EXPECT_EQ((*plain)[0].kind, 'i');
  EXPECT_EQ((*plain)[1].bytes, 4u);
  EXPECT_EQ((*plain)[2].bytes, 8u);
  EXPECT_EQ((*plain)[2].kind, 'f');
  const auto by_struct = ptx_entry_params(ptx, "_Z8bystruct1SPf");
  ASSERT_TRUE(by_struct);
  ASSERT_EQ(by_struct->size(), 2u);
  EXPECT_EQ((*by_struct)[0].bytes, 16u);
  EXPECT_EQ((*by_struct)[0].kind, '?');
  EXPECT_TRUE(ptx_entry_params(ptx, "empty")->empty());
  EXPECT_FALSE(ptx_entry_params(ptx, "missing"));

  const kbtest::TempFolder dir;
  const std::string file = write(dir.path() / "k.cu", R"K(/* kbench
{ "family": "reduce", "entry": "k", "dtypes": "float32",
  "params": ["input:0", {"role": "scalar", "type": "int32", "value": 1},
             {"role": "scalar", "type": "float64", "value": 0.5}],
  "block": 256, "grid": 1 } */
)K");
  const KernelManifest m = bound(file, reduce_family());
  EXPECT_EQ(compare_params(m.launches[0], *plain, "its PTX"), "");
  EXPECT_EQ(compare_params(m.launches[0], {{8, 'i'}, {4, 'i'}}, "its PTX"),
            "the kernel takes 2 parameters (its PTX), the manifest lists 3");
  EXPECT_EQ(compare_params(m.launches[0], {{8, 'i'}, {8, 'i'}, {8, 'f'}}, "its PTX"),
            "parameter 1 (scalar, int32) is 4 bytes, the kernel's is 8 (its PTX)");
  EXPECT_EQ(compare_params(m.launches[0], {{8, 'i'}, {4, 'f'}, {8, 'f'}}, "its PTX"),
            "parameter 1 (scalar, int32) is an integer, the kernel's is floating-point (its PTX)");
  EXPECT_EQ(compare_params(m.launches[0], {{8, 'i'}, {4, 'i'}, {8, 'i'}}, "its PTX"),
            "parameter 2 (scalar, float64) is floating-point, the kernel's is an integer or pointer "
            "(its PTX)");
}

TEST(KernelCache, KeysChangeWithWhatMakesTheCode) {
  const kbtest::TempFolder dir;
  write(dir.path() / "helper.cuh", "#define HELP 1\n");
  const std::string source = R"K(/* kbench
{ "family": "reduce", "entry": "k", "dtypes": ["float32", "float64"], "params": ["n"],
  "block": 256, "grid": 1 } */
#include "helper.cuh"
extern "C" __global__ void k(int n) {}
)K";
  const std::string file = write(dir.path() / "k.cu", source);
  const KernelManifest m = bound(file, reduce_family());
  const KernelVariant f32 = kernel_variant(m, request(KB_DTYPE_F32, {10}, {}));
  const KernelVariant f64 = kernel_variant(m, request(KB_DTYPE_F64, {10}, {}));
  const std::vector<std::string> options = {"-arch=sm_90", "-std=c++17"};
  const std::string key = cache_key(m, f32, "nvrtc 13.0", options, 13000);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key, cache_key(m, f32, "nvrtc 13.0", options, 13000));
  EXPECT_NE(key, cache_key(m, f64, "nvrtc 13.0", options, 13000));
  EXPECT_NE(key, cache_key(m, f32, "nvrtc 13.0", {"-arch=sm_100", "-std=c++17"}, 13000));
  EXPECT_NE(key, cache_key(m, f32, "nvrtc 13.1", options, 13000));
  EXPECT_NE(key, cache_key(m, f32, "nvrtc 13.0", options, 13010));
  // An edited header the kernel includes from its folder makes a new key.
  write(dir.path() / "helper.cuh", "#define HELP 2\n");
  EXPECT_NE(key, cache_key(m, f32, "nvrtc 13.0", options, 13000));
  // So does an edited kernel.
  write(dir.path() / "k.cu", source + "// edited\n");
  const KernelManifest edited = bound(file, reduce_family());
  EXPECT_NE(edited.sha256, m.sha256);
  EXPECT_NE(cache_key(edited, f32, "nvrtc 13.0", options, 13000), cache_key(m, f32, "nvrtc 13.0", options, 13000));
}

TEST(KernelCache, StoresWholeEntriesAndFindsThem) {
  const kbtest::TempFolder dir;
  const CodeCache cache((dir.path() / "cache").string());
  EXPECT_FALSE(cache.find("abc"));
  EXPECT_EQ(cache.store("abc", {{"_Z1kv", "_Z1jv"}, ".version 9.0",
                                 std::string("\x7f" "ELF\0\1", 6), "nvrtc 13.0 -arch=sm_90"}),
            "");
  const auto found = cache.find("abc");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->entries, (std::vector<std::string>{"_Z1kv", "_Z1jv"}));
  EXPECT_EQ(found->compiler, "nvrtc 13.0 -arch=sm_90");
  EXPECT_EQ(found->ptx, ".version 9.0");
  EXPECT_EQ(found->cubin, std::string("\x7f" "ELF\0\1", 6));
  // An entry whose last file is missing is no entry.
  fs::remove(dir.path() / "cache" / "abc.entry");
  EXPECT_FALSE(cache.find("abc"));
  write(dir.path() / "file", "not a folder");
  const CodeCache blocked((dir.path() / "file" / "cache").string());
  EXPECT_NE(blocked.store("abc", {{"k"}, "ptx", "", ""}).find("cannot make the cache folder"), std::string::npos);
  EXPECT_NE(CodeCache("").store("abc", {{"k"}, "ptx", "", ""}).find("no cache folder"), std::string::npos);
  // Which entry holds a variant's code: what the worker, which runs no compiler, reads.
  EXPECT_EQ(cache.built("variant"), "");
  EXPECT_EQ(cache.mark_built("variant", "abc"), "");
  EXPECT_EQ(cache.built("variant"), "abc");
}

TEST(KernelCache, TheFolderFollowsTheEnvironment) {
  const std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
  setenv("KBENCH_CACHE_DIR", "/tmp/kb-cache-test", 1);
  EXPECT_EQ(kernel_cache_dir(), "/tmp/kb-cache-test");
  unsetenv("KBENCH_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(kernel_cache_dir(), "/tmp/xdg/kbench/kernels");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(kernel_cache_dir(), "/home/someone/.cache/kbench/kernels");
  setenv("HOME", home.c_str(), 1);
}

TEST(KernelModule, EachArchitecturesSharedMemoryLimit) {
  EXPECT_EQ(arch_max_shared_bytes("sm_90"), 232448u);
  EXPECT_EQ(arch_max_shared_bytes("compute_90"), 232448u);
  EXPECT_EQ(arch_max_shared_bytes("sm_80"), 166912u);
  EXPECT_EQ(arch_max_shared_bytes("sm_89"), 101376u);
  EXPECT_EQ(arch_max_shared_bytes("sm_120"), 101376u);
  EXPECT_EQ(arch_max_shared_bytes("sm_999"), 0u);  // unknown: not held to a guess
  EXPECT_EQ(arch_max_shared_bytes("native"), 0u);
}

TEST(Nvrtc, FirstErrorsAreOneLine) {
  const std::string log =
      "k.cu(3): error: identifier \"x\" is undefined\n    out[0] = x;\n             ^\n\n"
      "k.cu(4): error: expected a \";\"\n\nk.cu(5): warning #177-D: unused\n"
      "k.cu(6): error: too few arguments\nk.cu(7): error: and another\n\n"
      "4 errors detected in the compilation of \"k.cu\".\n";
  EXPECT_EQ(first_errors(log),
            "k.cu(3): error: identifier \"x\" is undefined; k.cu(4): error: expected a \";\"; "
            "k.cu(6): error: too few arguments (4 errors)");
}

// NVRTC needs no device: a .cu compiles to PTX on any machine with the toolkit.
TEST(Nvrtc, AGoodKernelCompilesAndABrokenOnesErrorReachesTheUser) {
  std::string why;
  if (Nvrtc::instance(&why) == nullptr) GTEST_SKIP() << why;
  const kbtest::TempFolder dir;
  const CodeCache cache((dir.path() / "cache").string());
  const BuildTarget target{"compute_90", 0, false};
  const ScopedEnvironment nvrtc_chosen("KBENCH_KERNEL_COMPILER", "nvrtc");

  const KernelManifest tiled = bound(example("transpose_tiled.cu"), transpose_family());
  const KernelVariant v = kernel_variant(tiled, request(KB_DTYPE_F32, {64, 64}, {}, "tile=32;per_thread=8"));
  BuiltKernel built = build_kernel(tiled, v, target, cache);
  EXPECT_FALSE(built.cached);
  ASSERT_EQ(built.entries.size(), 1u);
  EXPECT_EQ(built.entries[0].rfind("_Z15transpose_tiledIfLi32ELi8E", 0), 0u) << built.entries[0];
  EXPECT_NE(built.ptx.find(".entry " + built.entries[0]), std::string::npos);
  EXPECT_NE(built.compiler.find("-arch=compute_90 -std=c++17"), std::string::npos) << built.compiler;
  EXPECT_EQ(built.compiler.find("-I"), std::string::npos) << built.compiler;
  built = build_kernel(tiled, v, target, cache);
  EXPECT_TRUE(built.cached);
  // The worker's side finds it without any compiler; a variant not built before is an error.
  const BuiltKernel found = load_built_kernel(tiled, v, target, cache);
  EXPECT_EQ(found.entries, built.entries);
  EXPECT_EQ(found.compiler, built.compiler);
  const KernelVariant other = kernel_variant(tiled, request(KB_DTYPE_F64, {64, 64}, {}, "tile=32;per_thread=8"));
  try {
    load_built_kernel(tiled, other, target, cache);
    ADD_FAILURE() << "a variant never built was found";
  } catch (const KernelBuildError& e) {
    EXPECT_NE(std::string(e.what()).find("was not built before the run"), std::string::npos) << e.what();
  }

  const std::string broken = write(dir.path() / "broken.cu", R"K(/* kbench
{ "family": "transpose", "entry": "broken", "dtypes": "float32",
  "params": ["input:0", "output:0", "rows", "cols"], "block": "bx, by",
  "grid": "cdiv(cols, bx), cdiv(rows, by)" } */
extern "C" __global__ void broken(const T* in, T* out, int rows, int cols) {
  out[0] = undefined_thing;
}
)K");
  const KernelManifest m = bound(broken, transpose_family());
  try {
    build_kernel(m, kernel_variant(m, request(KB_DTYPE_F32, {8, 8}, {8, 8})), target, cache);
    ADD_FAILURE() << "a broken kernel compiled";
  } catch (const KernelBuildError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("compile error (nvrtc "), std::string::npos) << what;
    EXPECT_NE(what.find("broken.cu(6): error: identifier \"undefined_thing\" is undefined"),
              std::string::npos)
        << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

// A two-pass reduction as published: partial sums into a buffer of the kernel's own, then a
// final pass leaves the total at its element 0, which kbench widens into the family's output.
const char* const kTwoPass = R"K(/* kbench
{ "family": "reduce", "dtypes": ["float32", "int32"], "ops": "sum",
  "knobs": [{"name": "threads", "values": [256], "choices": [128, 256, 512]},
            {"name": "pow2", "formula": "is_pow2(n)"}],
  "requires": ["grid_x <= 1024"],
  "launches": [
    {"entry": "reduce_pass<{T}, {threads}, {pow2}>",
     "params": ["input:0",
                {"role": "scratch", "name": "partials", "bytes": "grid_x * elem_bytes",
                 "result": "output:0", "element": "T", "zero": "never"}, "n:uint32"],
     "block": "threads", "grid": "min(cdiv(n, threads * 2), 1024)",
     "shared_bytes": "threads * elem_bytes"},
    {"entry": "reduce_pass<{T}, {threads}, 0>",
     "params": [{"role": "scratch", "name": "partials"}, {"role": "scratch", "name": "partials"},
                {"role": "scalar", "type": "uint32", "value": "min(cdiv(n, threads * 2), 1024)"}],
     "block": "threads", "grid": 1, "shared_bytes": "threads * elem_bytes"}
  ] } */
template <typename T, unsigned kThreads, bool kPow2>
__global__ void reduce_pass(const T* in, T* out, unsigned n) {}
)K";

TEST(KernelManifest, SeveralLaunchesShareNamedScratchAndLeaveTheResultThere) {
  const kbtest::TempFolder dir;
  const KernelManifest m = bound(write(dir.path() / "two_pass.cu", kTwoPass), reduce_family());
  ASSERT_EQ(m.launches.size(), 2u);
  EXPECT_TRUE(m.block_from_case() == false);
  const KernelArg& partials = m.launches[0].args[1];
  EXPECT_EQ(partials.result_of, 0);
  EXPECT_EQ(partials.result_type, KB_DTYPE_NONE);  // the case's type
  EXPECT_TRUE(m.launches[1].args[0].shared);
  // Each launch its own entry; a knob that is a formula of the case is a template argument.
  const KernelVariant pow2 = kernel_variant(m, request(KB_DTYPE_I32, {1 << 24}, {}, "", "sum"));
  EXPECT_EQ(pow2.entries, (std::vector<std::string>{"reduce_pass<int, 256, 1>", "reduce_pass<int, 256, 0>"}));
  const KernelVariant odd = kernel_variant(m, request(KB_DTYPE_I32, {1000}, {}, "", "sum"));
  EXPECT_EQ(odd.entries[0], "reduce_pass<int, 256, 0>");
  // The formula knob is no parameter to sweep.
  const PluginInfo part = kernel_part(std::make_shared<KernelManifest>(m), nullptr);
  ASSERT_EQ(part.params.size(), 1u);
  EXPECT_EQ(part.params[0].name, "threads");
  const std::vector<KernelLaunch> launches =
      kernel_launches(m, request(KB_DTYPE_F32, {1 << 24}, {}, "threads=512", "sum"), 132);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].grid[0], 1024u);
  EXPECT_EQ(launches[0].values[1].integer, 1024 * 4);  // the partials' bytes
  EXPECT_EQ(launches[0].shared_bytes, 512u * 4u);
  EXPECT_EQ(launches[1].grid[0], 1u);
  EXPECT_EQ(launches[1].values[2].integer, 1024);
  std::string why;
  EXPECT_TRUE(kernel_accepts(m, request(KB_DTYPE_F32, {1 << 24}, {}, "", "sum"), why)) << why;
}

TEST(KernelManifest, ARuleOfTheGridRefusesTheCaseWhereTheLaunchIsFormed) {
  const kbtest::TempFolder dir;
  const std::string file = write(dir.path() / "k.cu", R"K(/* kbench
{ "family": "reduce", "entry": "k", "dtypes": "float32", "params": ["input:0", "output:0", "n"],
  "block": 256, "grid": "cdiv(n, 256)", "requires": "grid_x <= 4 && (n & 255) == 0" } */
extern "C" __global__ void k(const float* in, float* out, int n) {}
)K");
  const KernelManifest m = bound(file, reduce_family());
  std::string why;
  // (n & 255) is part of a rule of the grid: decided with the launch, not before.
  EXPECT_TRUE(kernel_accepts(m, request(KB_DTYPE_F32, {1000}, {}, "", "sum"), why)) << why;
  EXPECT_EQ(kernel_launches(m, request(KB_DTYPE_F32, {1024}, {}, "", "sum"), 1).size(), 1u);
  for (const std::int64_t n : {2048, 1000}) {
    try {
      kernel_launches(m, request(KB_DTYPE_F32, {n}, {}, "", "sum"), 1);
      ADD_FAILURE() << n << " passed grid_x <= 4 && (n & 255) == 0";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("the manifest requires grid_x <= 4 && (n & 255) == 0"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(KernelManifest, AnOutputOfTheKernelsOwnTypeIsAResultToWiden) {
  const kbtest::TempFolder dir;
  const std::string file = write(dir.path() / "k.cu", R"K(/* kbench
{ "family": "reduce", "entry": "k", "dtypes": "int32", "ops": "sum",
  "params": ["input:0", {"role": "output", "element": "int32", "elements": "cdiv(n, 256)"}, "n"],
  "block": 256, "grid": "cdiv(n, 256)" } */
extern "C" __global__ void k(const int* in, int* out, int n) {}
)K");
  const KernelManifest m = bound(file, reduce_family());
  const KernelArg& out = m.launches[0].args[1];
  EXPECT_EQ(out.role, ArgRole::scratch);
  EXPECT_EQ(out.result_of, 0);
  EXPECT_EQ(out.result_type, KB_DTYPE_I32);
  EXPECT_TRUE(out.bytes_in_elements);
  EXPECT_EQ(kernel_launches(m, request(KB_DTYPE_I32, {1000}, {}, "", "sum"), 1)[0].values[1].integer, 4);
}

TEST(KernelManifest, AnOutputZeroedUntimedIsTheRunnersToZero) {
  const kbtest::TempFolder dir;
  const std::string file = write(dir.path() / "k.cu", R"K(/* kbench
{ "family": "reduce", "entry": "k", "dtypes": "int32", "ops": "sum",
  "params": ["input:0", {"role": "output", "index": 0, "zero": "untimed"}, "n"],
  "block": 256, "grid": "cdiv(n, 256)" } */
extern "C" __global__ void k(const int* in, long long* out, int n) {}
)K");
  const KernelManifest m = bound(file, reduce_family());
  EXPECT_EQ(m.launches[0].args[1].zero, ZeroWhen::untimed);
  EXPECT_NE(m.flags & KB_FLAG_ZEROED_OUTPUTS, 0u);
  const std::string inside = write(dir.path() / "inside.cu", R"K(/* kbench
{ "family": "reduce", "entry": "k", "dtypes": "int32", "ops": "sum",
  "params": ["input:0", {"role": "output", "index": 0, "zero": "launch"}, "n"],
  "block": 256, "grid": "cdiv(n, 256)" } */
extern "C" __global__ void k(const int* in, long long* out, int n) {}
)K");
  EXPECT_EQ(bound(inside, reduce_family()).flags & KB_FLAG_ZEROED_OUTPUTS, 0u);
}

TEST(KernelManifest, TheExamplesPartialsFillAWideOutputWhileTheGridKeepsToItsRule) {
  const KernelManifest m = bound(example("reduce_partials_in_output.cu"), reduce_family());
  const KernelArg& sums = m.launches[0].args[1];
  EXPECT_EQ(sums.role, ArgRole::scratch);
  EXPECT_EQ(sums.result_of, 0);
  EXPECT_TRUE(sums.bytes_in_elements);
  const auto launches = kernel_launches(m, request(KB_DTYPE_F32, {1 << 24}, {}, "", "sum"), 132);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].grid[0], 256u);            // 2^24 / (1024 threads * 64)
  EXPECT_EQ(launches[0].values[1].integer, 256);   // a partial per block
  EXPECT_EQ(launches[1].values[1].integer, 256);   // summed by one block of 1024 threads
  try {
    kernel_launches(m, request(KB_DTYPE_F32, {std::int64_t{1} << 28}, {}, "", "sum"), 132);
    ADD_FAILURE() << "2^28 passed grid_x <= threads with 4096 blocks";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the manifest requires grid_x <= threads"),
              std::string::npos)
        << e.what();
  }
}

TEST(KernelManifest, ABadLaunchListIsRefusedNamingTheKeyAndWhatWasExpected) {
  const kbtest::TempFolder dir;
  const std::pair<const char*, const char*> cases[] = {
      {R"({"family": "reduce", "dtypes": "float32", "entry": "k",
          "launches": [{"entry": "k", "params": ["n"], "block": 1, "grid": 1}]})",
       "'entry' is each launch's: with 'launches', give it in each of them"},
      {R"({"family": "reduce", "dtypes": "float32", "launches": []})",
       "'launches' must be a non-empty array of launches, in order"},
      {R"({"family": "reduce", "dtypes": "float32",
          "launches": [{"entry": "k", "params": [{"role": "scratch", "name": "p"}], "block": 1, "grid": 1}]})",
       "parameter 0 (scratch): no scratch 'p' declared (with its 'bytes') before it"},
      {R"({"family": "reduce", "dtypes": "float32",
          "launches": [{"entry": "k", "params": ["n"], "grid": 1}]})",
       "launches[0] has no 'block'"},
      {R"({"family": "reduce", "dtypes": "float32", "entry": "k", "block": 1, "grid": 1,
          "params": [{"role": "scratch", "bytes": 8, "result": "input:0"}]})",
       "params[0].result: 'input:0' is not output:N"},
      {R"({"family": "reduce", "dtypes": "float32", "entry": "k", "block": 1, "grid": 1,
          "params": [{"role": "scratch", "bytes": 8, "result": "output:0", "element": "int3"}]})",
       "params[0].element: unknown element type 'int3' (known: T, int32, int64"},
      {R"({"family": "reduce", "dtypes": "float32", "entry": "k", "block": 1, "grid": 1,
          "params": ["n"], "knobs": [{"name": "t", "formula": "n >", "values": [1]}]})",
       "knob 't': a knob has 'values' (swept) or a 'formula' (of the case), not both"},
      {R"({"family": "reduce", "dtypes": "float32", "entry": "k", "block": 1, "grid": 1,
          "params": ["n"], "compiler": "gcc"})",
       "'compiler' 'gcc' is not nvcc, nvrtc or auto"},
  };
  for (const auto& [json, expected] : cases) {
    const std::string file = write(dir.path() / "k.cu.json", json);
    write(dir.path() / "k.cu", "extern \"C\" __global__ void k() {}\n");
    const std::string why = refusal(dir.path().string() + "/k.cu", reduce_family());
    EXPECT_NE(why.find(expected), std::string::npos) << json << "\n -> " << why;
    EXPECT_EQ(why.rfind(dir.path().string() + "/k.cu: ", 0), 0u) << why;  // names the file
  }
}

TEST(KernelManifest, AHeaderOrOtherExtensionIsTakenWithTheManifestsWord) {
  const kbtest::TempFolder dir;
  const std::string body = R"(/* kbench
{ "family": "reduce", "entry": "k", "dtypes": "float32", "params": ["n"], "block": 1, "grid": 1 %s} */
extern "C" __global__ void k(int n) {}
)";
  const auto text = [&](const std::string& extra) {
    std::string t = body;
    t.replace(t.find("%s"), 2, extra);
    return t;
  };
  const std::string cuh = write(dir.path() / "k.cuh", text(", \"format\": \"cu\""));
  const KernelManifest m = bound(cuh, reduce_family());
  EXPECT_EQ(m.format, KernelFormat::source);
  EXPECT_EQ(m.name, "reduce/k");
  const std::string bare = write(dir.path() / "bare.cuh", text(""));
  EXPECT_NE(refusal(bare, reduce_family()).find("the manifest must say it (\"format\": \"cu\""),
            std::string::npos)
      << refusal(bare, reduce_family());
  const std::string wrong = write(dir.path() / "wrong.cu", text(", \"format\": \"ptx\""));
  EXPECT_NE(refusal(wrong, reduce_family()).find("'format' says ptx, the file's extension cu"),
            std::string::npos);
}

TEST(KernelManifest, OneFileHoldsSeveralStrategies) {
  const kbtest::TempFolder dir;
  const std::string file = write(dir.path() / "k.cu", R"K(/* kbench
{ "family": "reduce", "entry": "k<{T}, {threads}>", "dtypes": "float32", "ops": "sum",
  "params": ["input:0", "output:0", "n"], "block": "threads", "grid": 1,
  "knobs": [{"name": "threads", "values": [256]}],
  "strategies": [{"name": "k256"},
                 {"name": "k_by_size", "knobs": [{"name": "threads", "formula": "n < 4096 ? 64 : 512"}],
                  "description": "threads by size"}] } */
template <typename T, int kThreads> __global__ void k(const T* in, T* out, int n) {}
)K");
  const std::vector<KernelManifest> all = read_kernel_manifests(file);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "reduce/k256");
  EXPECT_EQ(all[1].name, "reduce/k_by_size");
  EXPECT_EQ(all[1].description, "threads by size");
  EXPECT_EQ(all[0].sha256, all[1].sha256);
  KernelManifest by_size = read_kernel_manifest(file, "reduce/k_by_size");
  bind_to_family(by_size, reduce_family());
  EXPECT_EQ(kernel_variant(by_size, request(KB_DTYPE_F32, {100}, {}, "", "sum")).entries[0], "k<float, 64>");
  try {
    read_kernel_manifest(file, "reduce/other");
    ADD_FAILURE() << "a strategy the file does not have was found";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no strategy 'reduce/other' in its manifest (it has "
                                         "reduce/k256, reduce/k_by_size)"),
              std::string::npos)
        << e.what();
  }
  const std::string twice = write(dir.path() / "twice.cu", R"K(/* kbench
{ "family": "reduce", "entry": "k", "dtypes": "float32", "params": ["n"], "block": 1, "grid": 1,
  "strategies": [{"name": "a"}, {"entry": "j"}] } */
)K");
  EXPECT_NE(refusal(twice, reduce_family()).find("strategies[1] must be an object with a 'name'"),
            std::string::npos);
}

// nvcc and NVRTC given the same kernel and options make the same machine code: the registers and
// the instructions of each example kernel, compiled both ways for sm_90, agree.
TEST(KernelCompilers, NvccAndNvrtcMakeTheSameMachineCodeForTheExamples) {
  std::string why;
  if (Nvrtc::instance(&why) == nullptr) GTEST_SKIP() << why;
  if (Nvcc::instance(&why) == nullptr) GTEST_SKIP() << why;
  const kbtest::TempFolder dir;
  const CodeCache cache((dir.path() / "cache").string());
  const BuildTarget target{"sm_90", 0, false};
  struct Example {
    const char* file;
    PluginInfo family;
    CaseRequest request;
  };
  const Example examples[] = {
      {"transpose_tile.cu", transpose_family(), request(KB_DTYPE_F32, {64, 64}, {32, 32})},
      {"transpose_tiled.cu", transpose_family(), request(KB_DTYPE_F32, {64, 64}, {}, "tile=32;per_thread=4")},
      {"reduce_last_block.cu", reduce_family(), request(KB_DTYPE_F32, {4096}, {256}, "", "sum")},
  };
  // Not reduce_partials_in_output.cu: the PTX of its grid-stride loop is the same both ways but
  // for two 64-bit address adds, yet its float64 code is 6272 bytes from nvcc and 4992 from
  // NVRTC (results/notes/nvrtc-vs-nvcc.md); published-kernels-acceptance.sh times both.
  for (const auto& e : examples) {
    const KernelManifest m = bound(example(e.file), e.family);
    const KernelVariant v = kernel_variant(m, e.request);
    std::vector<CubinKernel> kernels[2];
    for (const char* compiler : {"nvcc", "nvrtc"}) {
      const ScopedEnvironment chosen("KBENCH_KERNEL_COMPILER", compiler);
      const BuiltKernel built = build_kernel(m, v, target, cache);
      EXPECT_EQ(built.compiler.rfind(compiler, 0), 0u) << built.compiler;
      const auto all = cubin_kernels(built.image);
      ASSERT_TRUE(all) << e.file << " " << compiler;
      for (const auto& k : *all) {
        if (k.symbol == built.entries[0]) kernels[compiler[2] == 'r'].push_back(k);
      }
      ASSERT_EQ(kernels[compiler[2] == 'r'].size(), 1u) << e.file << " " << compiler;
    }
    const CubinKernel& nvcc = kernels[0][0];
    const CubinKernel& nvrtc = kernels[1][0];
    EXPECT_GT(nvcc.registers, 0) << e.file;
    EXPECT_EQ(nvcc.registers, nvrtc.registers) << e.file;
    EXPECT_EQ(nvcc.code.size(), nvrtc.code.size()) << e.file;
    // Instruction by instruction (16 bytes each), at most one differs (a constant bank's index).
    std::size_t differ = 0;
    for (std::size_t at = 0; at + 16 <= nvcc.code.size() && at + 16 <= nvrtc.code.size(); at += 16) {
      differ += nvcc.code.compare(at, 16, nvrtc.code, at, 16) != 0;
    }
    EXPECT_LE(differ, 1u) << e.file;
  }
}

// A published .cu: host includes, host code, a template instantiated by its host launch, and a
// name expression for another instance: nvcc compiles it as it is, device code only, and each
// launch's kernel is found in the cubin with its parameters.
TEST(KernelCompilers, NvccCompilesAPublishedFileWithHostCodeAsItIs) {
  std::string why;
  if (Nvcc::instance(&why) == nullptr) GTEST_SKIP() << why;
  const kbtest::TempFolder dir;
  const std::string file = write(dir.path() / "published.cu", R"K(/* kbench
{ "family": "reduce", "dtypes": "float32", "ops": "sum",
  "launches": [
    {"entry": "partial<256>", "params": ["input:0", {"role": "scratch", "name": "p", "bytes": "grid_x * 4",
     "result": "output:0"}, "n"], "block": 256, "grid": "cdiv(n, 256)"},
    {"entry": "finish", "params": [{"role": "scratch", "name": "p"}, "n"], "block": 1, "grid": 1}
  ] } */
#include <cstdio>
#include <cassert>
#include <cuda_runtime.h>

template <int kThreads>
__global__ void partial(const float* in, float* out, int n) {
  __shared__ float s[kThreads];
  const int i = blockIdx.x * kThreads + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0;
    for (int j = 0; j < kThreads; ++j) t += s[j];
    out[blockIdx.x] = t;
  }
}

__global__ void finish(float* partials, int n) {
  float t = 0;
  for (int b = 0; b < (n + 255) / 256; ++b) t += partials[b];
  partials[0] = t;
}

static float host_total = 0;

int main() {
  float* d = nullptr;
  assert(cudaMalloc(&d, 1024) == cudaSuccess);
  partial<128><<<1, 128>>>(d, d, 128);
  std::printf("%f\n", host_total);
  return 0;
}
)K");
  const KernelManifest m = bound(file, reduce_family());
  const ScopedEnvironment chosen("KBENCH_KERNEL_COMPILER", "nvcc");
  const CodeCache cache((dir.path() / "cache").string());
  const BuiltKernel built = build_kernel(m, kernel_variant(m, request(KB_DTYPE_F32, {1000}, {}, "", "sum")),
                                         {"compute_90", 0, false}, cache);
  EXPECT_EQ(built.compiler.rfind("nvcc ", 0), 0u) << built.compiler;
  EXPECT_NE(built.compiler.find("-arch=sm_90"), std::string::npos) << built.compiler;
  ASSERT_EQ(built.entries.size(), 2u);
  EXPECT_EQ(built.entries[0], "_Z7partialILi256EEvPKfPfi");  // not the <128> main launches
  EXPECT_EQ(built.entries[1], "_Z6finishPfi");
  const auto kernels = cubin_kernels(built.image);
  ASSERT_TRUE(kernels);
  std::string found_why;
  EXPECT_EQ(find_cubin_kernel(*kernels, "partial<128>", found_why), "_Z7partialILi128EEvPKfPfi") << found_why;
  EXPECT_EQ(find_cubin_kernel(*kernels, "partial", found_why), "");
  EXPECT_NE(found_why.find("'partial' names 2 kernels in the cubin"), std::string::npos) << found_why;
  for (const auto& k : *kernels) {
    if (k.symbol == "_Z6finishPfi") {
      EXPECT_TRUE(k.params_known);
      EXPECT_EQ(k.params.size(), 2u);
      EXPECT_EQ(k.params[0].bytes, 8u);
      EXPECT_EQ(k.params[1].bytes, 4u);
    }
  }
  // A parameter list that is not the kernel's is refused from the cubin alone, without a device.
  const std::string wrong = write(dir.path() / "wrong.cu", R"K(/* kbench
{ "family": "reduce", "dtypes": "float32", "entry": "finish", "params": ["input:0"], "block": 1, "grid": 1 } */
__global__ void finish(float* partials, int n) {}
)K");
  const KernelManifest w = bound(wrong, reduce_family());
  try {
    build_kernel(w, kernel_variant(w, request(KB_DTYPE_F32, {10}, {}, "", "sum")), {"compute_90", 0, false}, cache);
    ADD_FAILURE() << "a kernel of two parameters passed a manifest of one";
  } catch (const KernelBuildError& e) {
    EXPECT_NE(std::string(e.what()).find("the kernel takes 2 parameters (in its cubin), the manifest lists 1"),
              std::string::npos)
        << e.what();
  }
}

// NVRTC on CUDA 13 finds CCCL's headers as nvcc does.
TEST(KernelCompilers, NvrtcFindsCooperativeGroupsAndCub) {
  std::string why;
  if (Nvrtc::instance(&why) == nullptr) GTEST_SKIP() << why;
  const kbtest::TempFolder dir;
  const std::string file = write(dir.path() / "cg.cu", R"K(/* kbench
{ "family": "reduce", "dtypes": "float32", "ops": "sum", "compiler": "nvrtc", "entry": "k",
  "params": ["input:0", "output:0", "n"], "block": 128, "grid": 1 } */
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cub/block/block_reduce.cuh>
namespace cg = cooperative_groups;
extern "C" __global__ void k(const float* in, float* out, int n) {
  using Reduce = cub::BlockReduce<float, 128>;
  __shared__ typename Reduce::TempStorage storage;
  const float total = Reduce(storage).Sum(threadIdx.x < n ? in[threadIdx.x] : 0.0f);
  if (cg::this_thread_block().thread_rank() == 0) *out = total;
}
)K");
  const KernelManifest m = bound(file, reduce_family());
  const CodeCache cache((dir.path() / "cache").string());
  const BuiltKernel built = build_kernel(m, kernel_variant(m, request(KB_DTYPE_F32, {100}, {}, "", "sum")),
                                         {"compute_90", 0, false}, cache);
  EXPECT_EQ(built.compiler.rfind("nvrtc ", 0), 0u) << built.compiler;
}

}  // namespace
