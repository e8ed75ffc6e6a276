// On a GPU: kernel files run as strategies of their family. The seeds' padded tile as the in-tree
// plugin, as a .cu, as its PTX and as its cubin in one run, every row verified by the family; a
// kernel that cannot launch is an `error` row, never a fast one; shared memory above the device's
// limit is refused before any launch; `tune --kernel` searches a .cu's knobs.
#include "../support/kbench_process.hpp"
#include "device/device_info.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

namespace {

using kbtest::kbench;

std::string example(const std::string& name) {
  return std::string(KBENCH_SOURCE_DIR) + "/examples/kernels/" + name;
}
std::string built_example(const std::string& name) {
  return std::string(KBT_EXAMPLE_KERNELS) + "/" + name;
}

std::string write(const std::string& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
  return file;
}

class KernelFilesGpu : public ::testing::Test {
 protected:
  void SetUp() override { setenv("KBENCH_CACHE_DIR", cache_.file("cache").c_str(), 1); }
  kbtest::TempFolder cache_;
  kbtest::TempFolder dir_;
};

TEST_F(KernelFilesGpu, ThePaddedTileAsPluginCuPtxAndCubinInOneRun) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbench({"run", "--plugin", "transpose/shared_padded", "--kernel",
                           example("transpose_tile.cu"), "--kernel", built_example("transpose_tile.ptx"),
                           "--kernel", built_example("transpose_tile.cubin"), "--sizes", "2048",
                           "--blocks", "32x32", "--dtypes", "float32", "--max-time", "0.3"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::map<std::string, double> median;
  std::map<std::string, std::string> compiler, code;
  for (const auto& row : run.rows) {
    code[row.at("plugin")] = row.at("code").substr(0, row.at("code").find(" ("));
    EXPECT_EQ(row.at("status"), "ok") << row.at("plugin") << ": " << row.at("message");
    EXPECT_EQ(row.at("referee"), "family") << row.at("plugin");
    median[row.at("plugin")] = std::atof(row.at("median_us").c_str());
    compiler[row.at("plugin")] = row.at("kernel_compiler");
    // A kernel file's row names the file and its content hash; a plugin's names none.
    const bool from_file = row.at("plugin") != "transpose/shared_padded";
    EXPECT_EQ(row.at("kernel_file").empty(), !from_file) << row.at("plugin");
    EXPECT_EQ(row.at("kernel_sha256").size(), from_file ? 64u : 0u) << row.at("plugin");
  }
  EXPECT_EQ(compiler["transpose/transpose_tile"].rfind("nvcc ", 0), 0u);
  EXPECT_EQ(compiler["transpose/transpose_tile_ptx"].rfind("ptx", 0), 0u);
  EXPECT_EQ(compiler["transpose/transpose_tile_cubin"].rfind("cubin", 0), 0u);
  EXPECT_EQ(compiler["transpose/shared_padded"], "");
  // The code column agrees with kernel_compiler: the PTX compiled by the driver at load, the cubin
  // and NVRTC's output for this device as they are (the examples are built for sm_90).
  const std::string device = "sm_" + std::to_string(kb::device_capability(0).number());
  EXPECT_EQ(code["transpose/transpose_tile"], device);
  EXPECT_EQ(code["transpose/transpose_tile_ptx"], "ptx-jit compute_90");
  EXPECT_EQ(code["transpose/transpose_tile_cubin"], "sm_90");
  EXPECT_EQ(code["transpose/shared_padded"].rfind("sm_9", 0), 0u);
  ASSERT_EQ(median.size(), 4u) << run.output;
  const double plugin = median.at("transpose/shared_padded");
  for (const char* name : {"transpose/transpose_tile", "transpose/transpose_tile_ptx",
                           "transpose/transpose_tile_cubin"}) {
    // The same kernel: near the plugin's median (scripts/kernel-files-acceptance.sh holds the
    // acceptance's 2% on a quiet device; a test shares the host and is kept loose).
    EXPECT_NEAR(median.at(name) / plugin, 1.0, 0.15) << name;
  }
}

TEST_F(KernelFilesGpu, AKernelThatCannotLaunchIsAnErrorRow) {
  KBTEST_REQUIRE_GPU();
  // At most 64 threads a block, launched with 256: the launch fails; nothing is timed.
  const std::string file = write(dir_.file("bounded.cu"), R"K(/* kbench
{ "family": "transpose", "entry": "bounded", "dtypes": ["float32"],
  "params": ["input:0", "output:0", "rows", "cols"],
  "block": ["bx", "by"], "grid": ["cdiv(cols, bx)", "cdiv(rows, by)"] } */
extern "C" __global__ void __launch_bounds__(64) bounded(const T* in, T* out, int rows, int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[static_cast<long long>(c) * rows + r] = in[static_cast<long long>(r) * cols + c];
}
)K");
  const auto run = kbench({"run", "--kernel", file, "--sizes", "256", "--blocks", "16x16",
                           "--dtypes", "float32", "--max-time", "0.1"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_EQ(run.rows.size(), 1u) << run.output;
  EXPECT_EQ(run.rows[0].at("status"), "error");
  EXPECT_NE(run.rows[0].at("message").find("cudaLaunchKernelExC"), std::string::npos)
      << run.rows[0].at("message");
}

TEST_F(KernelFilesGpu, SharedMemoryAboveTheDevicesLimitIsRefusedBeforeAnyLaunch) {
  KBTEST_REQUIRE_GPU();
  const std::string file = write(dir_.file("greedy.cu"), R"K(/* kbench
{ "family": "transpose", "entry": "greedy", "dtypes": ["float32"],
  "params": ["input:0", "output:0", "rows", "cols"], "shared_bytes": "1048576",
  "block": ["bx", "by"], "grid": ["cdiv(cols, bx)", "cdiv(rows, by)"] } */
extern "C" __global__ void greedy(const T* in, T* out, int rows, int cols) {}
)K");
  const auto run = kbench({"run", "--kernel", file, "--sizes", "256", "--blocks", "16x16",
                           "--dtypes", "float32"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
  EXPECT_NE(run.output.find("shared memory: 1048576 dynamic + 0 static bytes per block, above the "
                            "device's limit of "),
            std::string::npos)
      << run.output;
  EXPECT_TRUE(run.rows.empty());
}

// The tile's rows per thread searched by `tune --kernel`: every value measured (exhaustive), and
// the best it records is the fastest of its rows.
TEST_F(KernelFilesGpu, TuneSearchesAKnobOfACu) {
  KBTEST_REQUIRE_GPU();
  const std::string csv = dir_.file("tune.csv"), best = dir_.file("best.json");
  const auto tune = kbench({"tune", "--kernel", example("transpose_tiled.cu"), "--sizes", "4096",
                            "--dtypes", "float32", "--param", "tile=32", "--param",
                            "per_thread=1,2,4,8", "--max-time", "0.2", "--output", csv, "--best",
                            best},
                           csv);
  ASSERT_EQ(tune.exit_code, 0) << tune.output;
  ASSERT_EQ(tune.rows.size(), 4u) << tune.output;
  std::string fastest;
  double fastest_us = 1e300;
  for (const auto& row : tune.rows) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("params") << " " << row.at("message");
    const double us = std::atof(row.at("median_us").c_str());
    if (us < fastest_us) fastest_us = us, fastest = row.at("params");
  }
  EXPECT_NE(kbtest::read_file(best).find(fastest), std::string::npos) << fastest << "\n"
                                                                       << kbtest::read_file(best);
}

}  // namespace

namespace {

// Published kernels as one strategy each: the CUDA-samples-style two-pass reduction (two
// launches, partials in a buffer of its own, the int32 sum widened into the family's int64) and
// the tutorial SGEMM (its tile by the shape), both compiled by nvcc with their host code.
TEST_F(KernelFilesGpu, PublishedKernelsRunAsPublishedAndAreOk) {
  KBTEST_REQUIRE_GPU();
  auto run = kbench({"run", "--kernel", example("reduce_two_pass.cu"), "--sizes", "2^24,2^26",
                     "--dtypes", "float32,int32", "--max-time", "0.2"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.rows.size(), 4u) << run.output;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("dtype") << " " << row.at("shape") << ": "
                                      << row.at("message");
    EXPECT_EQ(row.at("kernel_compiler").rfind("nvcc ", 0), 0u) << row.at("kernel_compiler");
    EXPECT_NE(row.at("kernel_compiler").find(", entries _Z7reduce6"), std::string::npos)
        << row.at("kernel_compiler");
  }
  // Partials parked in an output wider than the result; its grid rule refuses 2^28.
  run = kbench({"run", "--kernel", example("reduce_partials_in_output.cu"), "--sizes",
                "1000,2^24,2^28", "--dtypes", "float32,float64", "--max-time", "0.2"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 6u) << run.output;
  for (const auto& row : run.rows) {
    const bool outgrown = row.at("shape") == "268435456";
    EXPECT_EQ(row.at("status"), outgrown ? "unsupported" : "ok")
        << row.at("dtype") << " " << row.at("shape") << ": " << row.at("message");
    if (outgrown) EXPECT_NE(row.at("message").find("grid_x <= threads"), std::string::npos);
  }
  run = kbench({"run", "--kernel", example("sgemm_tiled.cu"), "--sizes", "512,1024",
                "--max-time", "0.2"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.rows.size(), 4u) << run.output;  // two strategies, two sizes
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("plugin") << " " << row.at("shape") << ": "
                                      << row.at("message");
    // C zeroed by kbench before each launch ("zero": "untimed"): one launch per held sample.
    EXPECT_EQ(row.at("timing"), "held") << row.at("plugin") << " " << row.at("shape");
    EXPECT_EQ(row.at("sample_launches"), "1") << row.at("plugin") << " " << row.at("shape");
  }
}

}  // namespace
