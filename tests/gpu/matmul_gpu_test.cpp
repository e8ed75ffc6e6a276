// The matmul family through the real `kbench run`: every plugin (the tensor-core ones included)
// on odd sizes in both data types must come back `ok` wherever it accepts the case; Kahan's
// summation must show its accuracy gain in the error column; matmul/regblock must be right on
// every kind of edge tile and within reach of cuBLAS at 4096^3.
#include "../support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

namespace {

const std::vector<std::string> kBlocks = {"16x16", "8x8"};

struct Plugin {
  std::string name;
  std::vector<std::string> blocks;  // the blocks of kBlocks it accepts; {"-"}: its own shape
  bool float64 = true;
};

// The SIMT and library plugins; the tensor-core plugins are checked by status alone.
const std::vector<Plugin> kPlugins = {
    {"matmul/cpu", {"-"}},
    {"matmul/naive", kBlocks},
    {"matmul/naive_rows", kBlocks},
    {"matmul/naive_cols", kBlocks},
    {"matmul/naive_kahan", kBlocks},
    {"matmul/row_shared", kBlocks},
    {"matmul/tiled", kBlocks},
    {"matmul/tiled_padded", kBlocks},
    {"matmul/regblock", {"-"}},
    {"matmul/cublas", {"-"}},
    {"matmul/cublas_tf32", {"-"}, /*float64=*/false},
    {"matmul/cublas_bf16", {"-"}, /*float64=*/false},
};

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

std::string key(const kbtest::Row& row) {
  return row.at("plugin") + " " + row.at("dtype") + " " + row.at("shape") + " block " +
         row.at("block");
}

const kbtest::Row* find_row(const kbtest::Run& run, const std::string& plugin,
                            const std::string& dtype, const std::string& shape) {
  for (const auto& row : run.rows) {
    if (row.at("plugin") == plugin && row.at("dtype") == dtype && row.at("shape") == shape) {
      return &row;
    }
  }
  return nullptr;
}

TEST(MatmulGpu, EveryPluginIsRightOnOddSizes) {
  KBTEST_REQUIRE_GPU();
  const std::vector<std::string> sizes = {"1x1x1", "33x65x17", "1000x1111x113"};
  const std::vector<std::string> dtypes = {"float32", "float64"};
  const kbtest::Run run =
      kbtest::kbench({"run", "--family", "matmul", "--sizes", join(sizes), "--blocks",
                      join(kBlocks), "--dtypes", join(dtypes), "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;

  std::set<std::string> expected_ok;
  for (const auto& plugin : kPlugins) {
    for (const auto& dtype : dtypes) {
      if (dtype == "float64" && !plugin.float64) continue;
      for (const auto& size : sizes) {
        for (const auto& block : plugin.blocks) {
          expected_ok.insert(plugin.name + " " + dtype + " " + size + " block " + block);
        }
      }
    }
  }

  std::set<std::string> seen_ok, tensor_ok;
  for (const auto& row : run.rows) {
    const std::string k = key(row);
    const std::string& status = row.at("status");
    const bool tensor = row.at("plugin").rfind("matmul/tensor", 0) == 0;
    if (status == "ok") {
      const double error = std::stod(row.at("max_rel_error"));
      EXPECT_TRUE(std::isfinite(error)) << k;
      if (tensor) {
        tensor_ok.insert(k);
      } else {
        EXPECT_TRUE(expected_ok.count(k)) << "ok, but the plugin should have refused it: " << k;
        seen_ok.insert(k);
      }
    } else if (status == "unsupported") {
      EXPECT_FALSE(expected_ok.count(k)) << "refused: " << k << ": " << row.at("message");
    } else {
      ADD_FAILURE() << k << ": " << status << ": " << row.at("message") << " (max_rel_error "
                    << row.at("max_rel_error") << ")";
    }
  }
  for (const auto& k : expected_ok) EXPECT_TRUE(seen_ok.count(k)) << "no ok row for " << k;
  EXPECT_FALSE(tensor_ok.empty()) << "no tensor-core plugin ran ok";
}

// Seed 003: at float32 and large K, the running sum's error is far above the compensated one's.
TEST(MatmulGpu, KahanSummationShowsItsAccuracyGain) {
  KBTEST_REQUIRE_GPU();
  const std::string shape = "256x256x16384";
  const kbtest::Run run = kbtest::kbench(
      {"run", "--plugin", "matmul/naive", "--plugin", "matmul/naive_kahan", "--sizes", shape,
       "--blocks", "16x16", "--dtypes", "float32", "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const kbtest::Row* naive = find_row(run, "matmul/naive", "float32", shape);
  const kbtest::Row* kahan = find_row(run, "matmul/naive_kahan", "float32", shape);
  ASSERT_TRUE(naive && kahan) << run.output;
  ASSERT_EQ(naive->at("status"), "ok") << naive->at("message");
  ASSERT_EQ(kahan->at("status"), "ok") << kahan->at("message");
  const double naive_error = std::stod(naive->at("max_rel_error"));
  const double kahan_error = std::stod(kahan->at("max_rel_error"));
  EXPECT_LT(kahan_error * 8, naive_error) << "naive " << naive_error << ", kahan " << kahan_error;
}

// Whole and partial tiles (float32 128x256, float64 128x128), blocks wholly inside next to edge
// blocks in one launch, row lengths that do and do not allow 16-byte loads (K % 4, N % 4),
// single rows and columns, and K shorter than one step.
TEST(MatmulGpu, RegblockIsRightOnEveryEdge) {
  KBTEST_REQUIRE_GPU();
  const std::vector<std::string> sizes = {"128x128x16", "129x131x17", "130x132x20", "255x257x1",
                                          "1x4096x4096", "4096x1x7", "384x256x4095",
                                          "256x512x32", "257x520x48"};
  const kbtest::Run run =
      kbtest::kbench({"run", "--plugin", "matmul/regblock", "--sizes", join(sizes), "--dtypes",
                      "float32,float64", "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::set<std::string> ok;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "ok") << key(row) << ": " << row.at("message");
    if (row.at("status") == "ok") ok.insert(row.at("dtype") + " " + row.at("shape"));
  }
  EXPECT_EQ(ok.size(), 2 * sizes.size()) << run.output;
}

// The wgmma kernels are persistent, one block per SM walking tiles in grouped order: shapes with
// more tiles than any GPU has SMs, partial tiles at both edges, a last group of fewer tile rows
// than the others, a single partial tile, and K that is not a whole k tile.
TEST(MatmulGpu, TensorCoreBlocksThatTakeSeveralTilesAreRight) {
  KBTEST_REQUIRE_GPU();
  const std::vector<std::string> sizes = {"2000x3001x77", "4099x2051x130", "8192x256x64",
                                          "100x300x40"};
  const kbtest::Run run = kbtest::kbench(
      {"run", "--plugin", "matmul/tensor_wgmma", "--plugin", "matmul/tensor_bf16", "--sizes",
       join(sizes), "--dtypes", "float32", "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::set<std::string> ok;
  for (const auto& row : run.rows) {
    if (row.at("status") == "unsupported") continue;  // not a compute capability 9.0 device
    EXPECT_EQ(row.at("status"), "ok") << key(row) << ": " << row.at("message");
    if (row.at("status") == "ok") ok.insert(key(row));
  }
  EXPECT_TRUE(ok.empty() || ok.size() == 2 * sizes.size()) << run.output;
}

// bfloat16 and float16 inputs go to the tensor cores as they are and come back as a float32 C,
// held to float32 accumulation alone: odd sizes, and a shape with more tiles than SMs.
TEST(MatmulGpu, SixteenBitInputsVerifyOnTheTensorCoresAndInCublas) {
  KBTEST_REQUIRE_GPU();
  const std::vector<std::string> sizes = {"33x65x17", "1000x1111x113", "2000x3001x77"};
  const kbtest::Run run = kbtest::kbench(
      {"run", "--plugin", "matmul/tensor_bf16", "--plugin", "matmul/cublas_bf16", "--plugin",
       "matmul/tensor_fp16", "--plugin", "matmul/cublas_fp16", "--sizes", join(sizes),
       "--dtypes", "bfloat16,float16", "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::set<std::string> ok;
  for (const auto& row : run.rows) {
    const bool bf16_plugin = row.at("plugin").find("bf16") != std::string::npos;
    if (bf16_plugin != (row.at("dtype") == "bfloat16")) {
      EXPECT_EQ(row.at("status"), "unsupported") << key(row);  // the other 16-bit type
      continue;
    }
    if (row.at("plugin").rfind("matmul/tensor", 0) == 0 && row.at("status") == "unsupported") {
      continue;  // not a compute capability 9.0 device
    }
    EXPECT_EQ(row.at("status"), "ok") << key(row) << ": " << row.at("message");
    EXPECT_NE(row.at("metrics").find("precision=fp32"), std::string::npos) << row.at("metrics");
    if (row.at("status") == "ok") ok.insert(key(row));
  }
  EXPECT_GE(ok.size(), 2 * sizes.size()) << run.output;  // cuBLAS everywhere, wgmma on sm_90
}

}  // namespace
