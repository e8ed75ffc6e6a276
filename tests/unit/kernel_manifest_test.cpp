// Kernel files on the host, no device: their manifests read and bound to a family, each case's
// acceptance, variant (entry, type, defines) and launch, the parameter checks against PTX, the
// cache's keys and entries, SHA-256, and NVRTC compiling a good and a broken .cu to PTX.
#include "kernel/code_cache.hpp"
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
  EXPECT_EQ(m.entry, "transpose_tile");
  EXPECT_EQ(m.dtypes, KB_DTYPE_F32 | KB_DTYPE_F64 | KB_DTYPE_I32);
  ASSERT_EQ(m.args.size(), 4u);
  EXPECT_EQ(m.args[0].role, ArgRole::input);
  EXPECT_EQ(m.args[1].role, ArgRole::output);
  EXPECT_EQ(m.args[2].role, ArgRole::extent);
  EXPECT_EQ(m.args[2].type, ArgType::i64);
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
  const KernelLaunch l = kernel_launch(m, request(KB_DTYPE_F64, {33, 31}, {32, 32, 1}), 132);
  EXPECT_EQ(l.grid, (std::array<std::uint32_t, 3>{1, 2, 1}));
  EXPECT_EQ(l.block, (std::array<std::uint32_t, 3>{32, 32, 1}));
  EXPECT_FALSE(l.clustered);
  EXPECT_EQ(l.shared_bytes, 32u * 33u * 8u);
  ASSERT_EQ(l.values.size(), 4u);
  EXPECT_EQ(l.values[2].integer, 33);
  EXPECT_EQ(l.values[3].integer, 31);
  // A grid the device cannot launch: 65535 rows of tiles at most.
  try {
    kernel_launch(m, request(KB_DTYPE_F32, {65536LL * 32, 32}, {32, 32, 1}), 132);
    ADD_FAILURE() << "a grid of 65536 in y launched";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is 65536, not 1 to 65535"), std::string::npos) << e.what();
  }
}

TEST(KernelManifest, TheTypeIsATypedefAndKnobsInTheEntryAreTemplateArguments) {
  const KernelManifest tile = bound(example("transpose_tile.cu"), transpose_family());
  KernelVariant v = kernel_variant(tile, request(KB_DTYPE_F64, {33, 31}, {32, 32, 1}));
  EXPECT_EQ(v.entry, "transpose_tile");
  EXPECT_EQ(v.prelude, "typedef double T;\n");
  EXPECT_TRUE(v.options.empty());

  const KernelManifest tiled = bound(example("transpose_tiled.cu"), transpose_family());
  EXPECT_FALSE(tiled.block_from_case());
  ASSERT_EQ(tiled.knobs.size(), 2u);
  v = kernel_variant(tiled, request(KB_DTYPE_I32, {64, 64}, {}, "tile=16;per_thread=2"));
  EXPECT_EQ(v.entry, "transpose_tiled<int, 16, 2>");
  EXPECT_EQ(v.prelude, "");  // {T} in the entry: no typedef
  EXPECT_TRUE(v.options.empty());
  const KernelLaunch l = kernel_launch(tiled, request(KB_DTYPE_I32, {64, 64}, {}, "tile=16;per_thread=2"), 1);
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
  const KernelLaunch sumsq = kernel_launch(m, request(KB_DTYPE_I32, {1 << 20}, {256, 1, 1}, "", "sumsq"), 132);
  EXPECT_EQ(sumsq.grid[0], 1024u);  // min(cdiv(2^20, 1024), 132 * 8)
  EXPECT_EQ(sumsq.values[3].integer, 1);
  EXPECT_EQ(sumsq.values[4].integer, 16 + 1024 * 8);
  const KernelLaunch sum = kernel_launch(m, request(KB_DTYPE_I32, {1 << 28}, {256, 1, 1}, "", "sum"), 132);
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
  EXPECT_EQ(compare_params(m, *plain, "its PTX"), "");
  EXPECT_EQ(compare_params(m, {{8, 'i'}, {4, 'i'}}, "its PTX"),
            "the kernel takes 2 parameters (its PTX), the manifest lists 3");
  EXPECT_EQ(compare_params(m, {{8, 'i'}, {8, 'i'}, {8, 'f'}}, "its PTX"),
            "parameter 1 (scalar, int32) is 4 bytes, the kernel's is 8 (its PTX)");
  EXPECT_EQ(compare_params(m, {{8, 'i'}, {4, 'f'}, {8, 'f'}}, "its PTX"),
            "parameter 1 (scalar, int32) is an integer, the kernel's is floating-point (its PTX)");
  EXPECT_EQ(compare_params(m, {{8, 'i'}, {4, 'i'}, {8, 'i'}}, "its PTX"),
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
  const std::string key = cache_key(m, f32, options, "13.0", 13000);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key, cache_key(m, f32, options, "13.0", 13000));
  EXPECT_NE(key, cache_key(m, f64, options, "13.0", 13000));
  EXPECT_NE(key, cache_key(m, f32, {"-arch=sm_100", "-std=c++17"}, "13.0", 13000));
  EXPECT_NE(key, cache_key(m, f32, options, "13.1", 13000));
  EXPECT_NE(key, cache_key(m, f32, options, "13.0", 13010));
  // An edited header the kernel includes from its folder makes a new key.
  write(dir.path() / "helper.cuh", "#define HELP 2\n");
  EXPECT_NE(key, cache_key(m, f32, options, "13.0", 13000));
  // So does an edited kernel.
  write(dir.path() / "k.cu", source + "// edited\n");
  const KernelManifest edited = bound(file, reduce_family());
  EXPECT_NE(edited.sha256, m.sha256);
  EXPECT_NE(cache_key(edited, f32, options, "13.0", 13000), cache_key(m, f32, options, "13.0", 13000));
}

TEST(KernelCache, StoresWholeEntriesAndFindsThem) {
  const kbtest::TempFolder dir;
  const CodeCache cache((dir.path() / "cache").string());
  EXPECT_FALSE(cache.find("abc"));
  EXPECT_EQ(cache.store("abc", {"_Z1kv", ".version 9.0", std::string("\x7f" "ELF\0\1", 6)}), "");
  const auto found = cache.find("abc");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->entry, "_Z1kv");
  EXPECT_EQ(found->ptx, ".version 9.0");
  EXPECT_EQ(found->cubin, std::string("\x7f" "ELF\0\1", 6));
  // An entry whose last file is missing is no entry.
  fs::remove(dir.path() / "cache" / "abc.entry");
  EXPECT_FALSE(cache.find("abc"));
  write(dir.path() / "file", "not a folder");
  const CodeCache blocked((dir.path() / "file" / "cache").string());
  EXPECT_NE(blocked.store("abc", {"k", "ptx", ""}).find("cannot make the cache folder"), std::string::npos);
  EXPECT_NE(CodeCache("").store("abc", {"k", "ptx", ""}).find("no cache folder"), std::string::npos);
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

  const KernelManifest tiled = bound(example("transpose_tiled.cu"), transpose_family());
  const KernelVariant v = kernel_variant(tiled, request(KB_DTYPE_F32, {64, 64}, {}, "tile=32;per_thread=8"));
  BuiltKernel built = build_kernel(tiled, v, target, cache);
  EXPECT_FALSE(built.cached);
  EXPECT_EQ(built.entry.rfind("_Z15transpose_tiledIfLi32ELi8E", 0), 0u) << built.entry;
  EXPECT_NE(built.ptx.find(".entry " + built.entry), std::string::npos);
  EXPECT_NE(built.compiler.find("-arch=compute_90 -std=c++17"), std::string::npos) << built.compiler;
  EXPECT_EQ(built.compiler.find("-I"), std::string::npos) << built.compiler;
  built = build_kernel(tiled, v, target, cache);
  EXPECT_TRUE(built.cached);

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

}  // namespace
