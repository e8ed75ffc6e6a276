// Kernel files through the real `kbench`: every bad manifest (and every kernel that does not match
// its manifest, or does not compile) is one line and exit 2 before anything is launched, on any
// machine; good ones are listed, validated and (with a device) run like any plugin, their code
// compiled once and then found in the cache.
#include "kernel/nvcc.hpp"
#include "kernel/nvrtc.hpp"
#include "util/sha256.hpp"
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <unistd.h>

namespace {

using kbtest::kbench;
namespace fs = boost::filesystem;

const char* const kSource = R"K(
extern "C" __global__ void k(const T* in, T* out, int rows, int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[static_cast<long long>(c) * rows + r] = in[static_cast<long long>(r) * cols + c];
}
)K";

// A correct manifest for kSource; each bad case changes one thing.
const char* const kManifest = R"K({
  "family": "transpose", "entry": "k", "dtypes": ["float32"],
  "params": ["input:0", "output:0", "rows", "cols"],
  "block": ["bx", "by"], "grid": ["cdiv(cols, bx)", "cdiv(rows, by)"]
})K";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string write(const fs::path& file, const std::string& text) {
  std::ofstream(file.string(), std::ios::binary) << text;
  return file.string();
}

// A kernel file with its manifest in its top comment.
std::string kernel_file(const fs::path& dir, const std::string& manifest,
                        const std::string& source = kSource, const std::string& name = "bad.cu") {
  return write(dir / name, "/* kbench\n" + manifest + "\n*/\n" + source);
}

bool nvrtc_here() { return kb::Nvrtc::instance(nullptr) != nullptr; }

class KernelFiles : public ::testing::Test {
 protected:
  // NVRTC's messages, unless a test asks for nvcc: every compile step the tests start inherits it.
  void SetUp() override {
    setenv("KBENCH_CACHE_DIR", (cache_.path() / "cache").c_str(), 1);
    setenv("KBENCH_KERNEL_COMPILER", "nvrtc", 1);
  }
  void TearDown() override { unsetenv("KBENCH_KERNEL_COMPILER"); }
  kbtest::TempFolder cache_;
  kbtest::TempFolder dir_;
};

struct Bad {
  std::string manifest;
  std::string expected;
  std::string source = kSource;
  bool compiles = false;  // the refusal comes from compiling (NVRTC needed)
};

TEST_F(KernelFiles, EveryBadManifestIsOneLineAndExit2BeforeAnyLaunch) {
  const std::string m = kManifest;
  const std::vector<Bad> table = {
      {"{\"family\": \"transpose\",", "manifest is not valid JSON (the comment from line 1)"},
      {replaced(m, "\"transpose\"", "\"transpoze\""),
       "unknown family 'transpoze' (no library of it is loaded; families here: "},
      {replaced(m, "\"entry\": \"k\"", "\"entry\": \"k\", \"entyr\": \"k\""),
       "manifest: unknown key 'entyr' (known: family, name, description, format, compiler, entry, "},
      {replaced(m, "\"entry\": \"k\",", ""), "manifest has no 'entry'"},
      {replaced(m, "\"cols\"]", "{\"role\": \"weights\"}]"),
       "params[3]: unknown role 'weights' (known: input, output, extent, scalar, knob, scratch)"},
      {replaced(m, "\"input:0\"", "\"input:9\""), "params[0]: operand index '9' is not 0 to 3"},
      {replaced(m, "\"output:0\"", "\"input:1\""),
       "parameter 1 (input 1): the transpose family has 1 input (input:0)"},
      {replaced(m, "[\"float32\"]", "[\"float128\"]"), "'dtypes': unknown data type 'float128'"},
      {replaced(replaced(m, "\"transpose\"", "\"matmul\""), "[\"float32\"]", "[\"int32\"]"),
       "'dtypes': the matmul family referees float32,float64,float16,bfloat16, not int32"},
      {replaced(m, "\"rows\", \"cols\"]", "\"height\", \"cols\"]"),
       "parameter 2 (extent 'height', int32): 'height' is no extent of the transpose family (it "
       "has rows,cols) and no knob"},
      {replaced(m, "\"rows\", \"cols\"]", "\"rows:int128\", \"cols\"]"),
       "params[2] type: unknown type 'int128'"},
      {replaced(m, "\"cdiv(cols, bx)\"", "\"cdiv(cols, bx\""),
       "'grid'[0]: formula 'cdiv(cols, bx' expected ')' at character 14"},
      {replaced(m, "\"cdiv(cols, bx)\"", "\"cdiv(width, bx)\""),
       "'grid': formula 'cdiv(width, bx)' uses unknown name 'width'"},
      {replaced(m, "\"cdiv(cols, bx)\"", "\"ceil(cols / bx)\""),
       "calls unknown function 'ceil' (known: cdiv, round_up, min, max, log2, pow2, is_pow2)"},
      {replaced(m, "\"dtypes\"", "\"ops\": [\"max\"], \"dtypes\""),
       "'ops': the transpose family has no operation 'max' (it has one, unnamed)"},
      {replaced(m, "\"dtypes\"", "\"knobs\": [{\"name\": \"tile\", \"values\": [3], \"choices\": [16, 32]}], \"dtypes\""),
       "knob 'tile': value '3' is not among its choices"},
      {replaced(m, "\"dtypes\"", "\"knobs\": [{\"name\": \"bx\", \"values\": [3]}], \"dtypes\""),
       "knob 'bx': 'bx' is a reserved name"},
      {replaced(replaced(m, "[\"bx\", \"by\"]", "[32, 8]"), "\"dtypes\"", "\"requires\": [\"bx == 32\"], \"dtypes\""),
       "'requires' uses 'bx', but the block does not come from --blocks"},
      {replaced(m, "\"entry\": \"k\"", "\"entry\": \"k<{U}>\""),
       "entry 'k<{U}>': unknown placeholder {U} (known: {T}, {op} and the knobs)"},
      {replaced(m, "\"dtypes\"", "\"math\": \"tensor\", \"dtypes\""),
       "'math' 'tensor' is not simt, tf32, bf16, fp16 or fp64_tensor"},
      {replaced(m, "\"output:0\"", "{\"role\": \"output\", \"zero\": \"once\"}"),
       "params[1]: an output zeroed once would hold its family's poison"},
      {replaced(m, "\"output:0\"", "{\"role\": \"output\", \"zero\": \"often\"}"),
       "params[1].zero: 'often' is not never, once, launch or untimed"},
      {replaced(m, "\"cols\"]", "\"cols\", {\"role\": \"scratch\", \"bytes\": 16, \"zero\": \"untimed\"}]"),
       "params[4].zero: 'untimed' is for the family's outputs (output:N), which kbench zeroes "
       "outside the timed region"},
      {replaced(m, "\"entry\"", "\"name\": \"reduce/k\", \"entry\""),
       "name 'reduce/k' is not of the family 'transpose'"},
      {replaced(m, "\"entry\"", "\"name\": \"copy\", \"entry\""),
       "its name 'transpose/copy' is taken by "},
      {replaced(m, "\"block\": [\"bx\", \"by\"]", "\"block\": [\"bx\", \"by\", 1, 1]"),
       "'block' must have 1 to 3 dimensions"},
      {replaced(m, "\"cols\"]", "\"cols\", \"scratch:grid_x +\"]"),
       "params[4] bytes: formula 'grid_x +' ends too early"},
      // The kernel's own parameter list, read from the PTX NVRTC writes.
      {replaced(m, ", \"cols\"]", "]"),
       "parameters: the kernel takes 4 parameters (in its compiled PTX), the manifest lists 3",
       kSource, true},
      {replaced(m, "\"rows\", \"cols\"]", "\"rows:int64\", \"cols\"]"),
       "parameters: parameter 2 (extent 'rows', int64) is 8 bytes, the kernel's is 4 (in its "
       "compiled PTX)",
       kSource, true},
      {replaced(m, "\"cols\"]", "{\"role\": \"scalar\", \"type\": \"float32\", \"value\": 1.5}]"),
       "parameters: parameter 3 (scalar, float32) is floating-point, the kernel's is an integer or "
       "pointer (in its compiled PTX)",
       kSource, true},
      // Shared memory above the limit: the device's, or without one the architecture's.
      {replaced(m, "\"grid\"", "\"shared_bytes\": \"300000\", \"grid\""),
       "shared memory: 300000 dynamic", kSource, true},
      // Compile errors: the compiler's first error lines.
      {m, "compile error (nvrtc ",
       replaced(kSource, "if (r < rows", "out[0] = undefined_thing;\n  if (r < rows"), true},
      {m, "): error: identifier \"undefined_thing\" is undefined [float32]",
       replaced(kSource, "if (r < rows", "out[0] = undefined_thing;\n  if (r < rows"), true},
      {replaced(m, "\"entry\": \"k\"", "\"entry\": \"nope\""), "nope", kSource, true},
  };
  for (const auto& bad : table) {
    if (bad.compiles && !nvrtc_here()) {
      ADD_FAILURE() << "NVRTC is not loadable here: " << bad.expected;
      continue;
    }
    const std::string file = kernel_file(dir_.path(), bad.manifest, bad.source);
    const auto run = kbench({"run", "--kernel", file, "--sizes", "64", "--blocks", "16x16"});
    EXPECT_EQ(run.exit_code, 2) << bad.expected << "\n" << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find("kbench: error: " + file + ": "), std::string::npos) << run.output;
    EXPECT_NE(run.output.find(bad.expected), std::string::npos) << bad.expected << "\n" << run.output;
    EXPECT_TRUE(run.rows.empty()) << bad.expected;
  }
}

TEST_F(KernelFiles, FilesThatAreNoKernelOrHaveNoManifestAreOneLineAndExit2) {
  const std::string plain = write(dir_.path() / "plain.cu", kSource);
  std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--kernel", plain},
       plain + ": no manifest: looked for plain.cu.json, plain.json and a /* kbench { ... } */ "
               "comment at the top of the file (docs/kernel-files.md)"},
      {{"--kernel", (dir_.path() / "missing.cu").string()}, "missing.cu: no such file"},
      {{"--kernel", write(dir_.path() / "notes.txt", "x")},
       "notes.txt: no manifest: looked for notes.txt.json, notes.json and a /* kbench { ... } */ "
       "comment at the top of the file; a file whose extension is not .cu, .ptx, .cubin or "
       ".fatbin needs one that says its \"format\""},
      {{"--kernel", write(dir_.path() / "k.cubin", "garbage")}, "k.cubin: not a cubin: no ELF header"},
      {{"--kernel", write(dir_.path() / "k.fatbin", "garbage")}, "k.fatbin: not a fatbin: no fatbin header"},
      {{"--kernel", write(dir_.path() / "k.ptx", "garbage")}, "k.ptx: not PTX: no .version or .entry"},
      {{"--kernel", ""}, "--kernel names an empty file"},
  };
  const std::string both = kernel_file(dir_.path(), kManifest, kSource, "both.cu");
  write(dir_.path() / "both.json", kManifest);
  cases.push_back({{"--kernel", both}, "both.cu: two manifests: " + (dir_.path() / "both.json").string() +
                                           " and a /* kbench ... */ comment in the file; keep one"});
  for (const auto& [args, expected] : cases) {
    std::vector<std::string> all = {"run"};
    all.insert(all.end(), args.begin(), args.end());
    const auto run = kbench(all);
    EXPECT_EQ(run.exit_code, 2) << expected << "\n" << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find(expected), std::string::npos) << expected << "\n" << run.output;
  }
}

// The example PTX (built by nvcc) against manifests that do not match it.
TEST_F(KernelFiles, APtxIsHeldToItsManifest) {
  const std::string built = std::string(KBT_EXAMPLE_KERNELS) + "/transpose_tile.ptx";
  ASSERT_TRUE(fs::exists(built)) << built;
  const std::string ptx = (dir_.path() / "tile.ptx").string();
  fs::copy_file(built, ptx);
  const std::string good = kbtest::read_file(std::string(KBT_EXAMPLE_KERNELS) + "/transpose_tile.ptx.json");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {replaced(good, "\"entry\": \"transpose_tile\"", "\"entry\": \"other\""),
       "no kernel 'other' in the PTX (its kernels: transpose_tile)"},
      {replaced(good, ", \"cols:int64\"]", "]"),
       "the kernel takes 4 parameters (in its PTX), the manifest lists 3"},
      {replaced(good, "\"dtypes\"", "\"options\": [\"-lineinfo\"], \"dtypes\""),
       "'options' is for a .cu kernel (compiled by kbench); this one is ptx"},
  };
  for (const auto& [manifest, expected] : cases) {
    write(ptx + ".json", manifest);
    const auto run = kbench({"run", "--kernel", ptx, "--sizes", "64", "--blocks", "16x16"});
    EXPECT_EQ(run.exit_code, 2) << expected << "\n" << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find(expected), std::string::npos) << expected << "\n" << run.output;
  }
  write(ptx + ".json", good);
  const auto run = kbench({"validate", ptx});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("loaded transpose/tile_ptx (family transpose"), std::string::npos)
      << run.output;
}

TEST_F(KernelFiles, AreListedWithTheirContentHash) {
  const std::string file = kernel_file(dir_.path(), kManifest, kSource, "good.cu");
  auto run = kbench({"list", "--kernel", file});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("| transpose/good | cuda | float32 |  | from --blocks |  | "),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("| compiled before the run | " + file + " |"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("transpose/copy"), std::string::npos) << "listed alone: " << run.output;
  // Beside the plugins a filter selects, as run selects them.
  run = kbench({"list", "--kernel", file, "--plugin", "transpose/copy"});
  EXPECT_NE(run.output.find("transpose/copy"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("transpose/good"), std::string::npos) << run.output;
}

TEST_F(KernelFiles, CompileOnceThenComeFromTheCache) {
  if (!nvrtc_here()) GTEST_SKIP() << "NVRTC is not loadable here";
  const std::string file = kernel_file(dir_.path(), kManifest, kSource, "good.cu");
  auto run = kbench({"validate", file});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("transpose/good: 1 variant (1 compiled, 0 from the cache "),
            std::string::npos)
      << run.output;
  run = kbench({"validate", file});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("transpose/good: 1 variant (0 compiled, 1 from the cache "),
            std::string::npos)
      << run.output;
  // An edited kernel is a new key.
  kernel_file(dir_.path(), kManifest, std::string(kSource) + "// edited\n", "good.cu");
  run = kbench({"validate", file});
  EXPECT_NE(run.output.find("(1 compiled, 0 from the cache "), std::string::npos) << run.output;
}

// The probe compiles and the workers load under the plugin sandbox, which lets them write only
// beneath the temporary folders, the caches and kbench's own cache folder: a cache folder outside
// all of them (here, in the build tree), not there yet, is made by the runner before the probe
// starts, and filled and found from inside the sandbox.
TEST_F(KernelFiles, TheCacheFolderWorksUnderThePluginSandboxWhereverItIs) {
  if (!nvrtc_here()) GTEST_SKIP() << "NVRTC is not loadable here";
  const fs::path outside = fs::path(KBT_PLUGIN_ROOT).parent_path() /
                           ("kernel-cache-" + std::to_string(getpid()));
  fs::remove_all(outside);
  const fs::path cache = outside / "nested" / "cache";
  setenv("KBENCH_CACHE_DIR", cache.c_str(), 1);
  const std::string file = kernel_file(dir_.path(), kManifest, kSource, "good.cu");
  auto run = kbench({"validate", file});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("(1 compiled, 0 from the cache " + cache.string() + ")"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("not cached"), std::string::npos) << run.output;
  run = kbench({"run", "--kernel", file, "--sizes", "64", "--blocks", "16x16", "--dtypes",
                "float32", "--max-time", "0.05"});
  EXPECT_NE(run.output.find("(0 compiled, 1 from the cache " + cache.string() + ")"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("not cached"), std::string::npos) << run.output;
  fs::remove_all(outside);
}

TEST_F(KernelFiles, RunBesideThePluginsAFilterSelects) {
  if (!nvrtc_here()) GTEST_SKIP() << "NVRTC is not loadable here";
  const std::string file = kernel_file(dir_.path(), kManifest, kSource, "good.cu");
  const auto run = kbench({"run", "--kernel", file, "--plugin", "transpose/cpu", "--sizes", "64",
                           "--blocks", "16x16", "--dtypes", "float32", "--max-time", "0.05"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::size_t cpu = 0, kernel = 0;
  for (const auto& row : run.rows) {
    if (row.at("plugin") == "transpose/cpu") ++cpu;
    if (row.at("plugin") != "transpose/good") continue;
    ++kernel;
    EXPECT_EQ(row.at("status"), "ok") << row.at("message");
    EXPECT_EQ(row.at("referee"), "family");
    // The file, its content hash and how its code was made, each in its column.
    EXPECT_EQ(row.at("kernel_file"), file);
    EXPECT_EQ(row.at("kernel_sha256"), kb::sha256_hex(kbtest::read_file(file)));
    EXPECT_EQ(row.at("plugin_version"), row.at("kernel_sha256").substr(0, 12));
    EXPECT_EQ(row.at("kernel_compiler").rfind("nvrtc ", 0), 0u) << row.at("kernel_compiler");
    EXPECT_NE(row.at("kernel_compiler").find(" -std=c++17, with typedef float T, entry k"),
              std::string::npos)
        << row.at("kernel_compiler");
    // Not in the message, which holds the row's notes alone.
    EXPECT_EQ(row.at("message").find("sha256"), std::string::npos) << row.at("message");
  }
  EXPECT_EQ(cpu, 1u) << run.output;
  if (kbtest::cuda_device_present()) {
    EXPECT_EQ(kernel, 1u) << run.output;
  } else {
    EXPECT_EQ(kernel, 0u);
    EXPECT_NE(run.output.find("transpose/good: 1 variant (1 compiled"), std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("skipping the CUDA plugins: transpose/good"), std::string::npos)
        << run.output;
  }
}

// A sweep over knobs (and data types) compiles each variant once, on the host's threads, before
// any case runs; a second sweep finds every one in the cache.
TEST_F(KernelFiles, ASweepOverKnobsCompilesEachVariantOnceInParallel) {
  if (!nvrtc_here()) GTEST_SKIP() << "NVRTC is not loadable here";
  const std::string file = std::string(KBENCH_SOURCE_DIR) + "/examples/kernels/transpose_tiled.cu";
  const std::vector<std::string> args = {"run", "--kernel", file, "--param", "tile=16,32",
                                         "--param", "per_thread=2,4", "--dtypes", "float32,float64",
                                         "--sizes", "64,96x128", "--max-time", "0.05"};
  const unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  const std::string on = " on " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s");
  auto run = kbench(args);
  // 2 tiles x 2 per_thread x 2 dtypes = 8 variants for 16 cases (the two shapes share them).
  EXPECT_NE(run.output.find("transpose/transpose_tiled: 8 variants (8 compiled, 0 from the cache "),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find(on), std::string::npos) << run.output;
  run = kbench(args);
  EXPECT_NE(run.output.find("transpose/transpose_tiled: 8 variants (0 compiled, 8 from the cache "),
            std::string::npos)
      << run.output;
  if (kbtest::cuda_device_present()) {
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.rows.size(), 16u) << run.output;
  }
}

// A .cu as published, with host includes and host code: nvcc compiles it as it is, device code
// only, and finds the kernel by its name; validate says which compiler made it.
TEST_F(KernelFiles, APublishedFileWithHostCodeIsCompiledByNvccAsItIs) {
  unsetenv("KBENCH_KERNEL_COMPILER");
  std::string why;
  if (kb::Nvcc::instance(&why) == nullptr) GTEST_SKIP() << why;
  const std::string file = write(dir_.path() / "published.cu", R"K(/* kbench
{ "family": "transpose", "entry": "copy_tile<float>", "dtypes": "float32",
  "description": "a transpose as a tutorial publishes it",
  "params": ["input:0", "output:0", "rows", "cols"], "block": ["bx", "by"],
  "grid": ["cdiv(cols, bx)", "cdiv(rows, by)"] } */
#include <cstdio>
#include <cassert>
#include <cuda_runtime.h>

template <typename T>
__global__ void copy_tile(const T* in, T* out, int rows, int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

int main() {
  float* d = nullptr;
  assert(cudaMalloc(&d, 64 * sizeof(float)) == cudaSuccess);
  copy_tile<float><<<1, dim3(8, 8)>>>(d, d, 8, 8);
  std::printf("done\n");
}
)K");
  auto run = kbench({"validate", file, "--no-sanitizer"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("transpose/published: "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(") by nvcc in "), std::string::npos) << run.output;
  // list says what the manifest says it is.
  run = kbench({"list", "--kernel", file});
  EXPECT_NE(run.output.find("\ntranspose/published: a transpose as a tutorial publishes it\n"),
            std::string::npos)
      << run.output;
}

// validate says when it checked nothing, and checks the cases it is given.
TEST_F(KernelFiles, ValidateRefusesToPassAFileWhoseSmallCasesAreAllRefused) {
  if (!nvrtc_here()) GTEST_SKIP() << "NVRTC is not loadable here";
  const std::string file = kernel_file(
      dir_.path(), replaced(kManifest, "\"grid\"", "\"requires\": \"rows >= 4096\", \"grid\""),
      kSource, "big.cu");
  auto run = kbench({"validate", file, "--no-sanitizer"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find(file + ": no case to check: the manifest refuses every small case of "
                                   "its family ("),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("the manifest requires rows >= 4096"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("give one it takes with --sizes (and --param)"), std::string::npos);
  run = kbench({"validate", file, "--no-sanitizer", "--sizes", "4096x64"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("transpose/big: 1 variant (1 compiled"), std::string::npos) << run.output;
}

TEST_F(KernelFiles, TuneTakesAKernelInPlaceOfAPlugin) {
  const auto run = kbench({"tune", "--sizes", "64"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("kbench tune needs --plugin or --kernel"), std::string::npos)
      << run.output;
}

}  // namespace
