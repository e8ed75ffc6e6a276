// Every transpose plugin, every data type, through the real `kbench run`: each case it accepts
// must come back `ok` (exact against the host reference), on the seeds' odd sizes and on the
// shapes that drive transpose/fast's 16-byte path through whole and partial tiles.
#include "../support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

const std::vector<std::string> kDtypes = {"float32", "float64", "int32"};
const std::vector<std::string> kBlocks = {"8x8", "16x16", "32x32", "32x8"};

struct Plugin {
  std::string name;
  std::vector<std::string> blocks;  // the blocks of kBlocks it accepts; {"-"}: its own shape
  bool int32 = true;
};

const std::vector<Plugin> kPlugins = {
    {"transpose/cpu", {"-"}},
    {"transpose/naive_row", kBlocks},
    {"transpose/naive_col", kBlocks},
    {"transpose/shared", {"8x8", "16x16", "32x32"}},
    {"transpose/shared_padded", {"8x8", "16x16", "32x32"}},
    {"transpose/shared_swapped_index", {"8x8", "16x16", "32x32"}},
    {"transpose/tiled_coarse", {"32x32", "32x8"}},
    {"transpose/fast", {"-"}},
    {"transpose/cublas", {"-"}, /*int32=*/false},
    {"transpose/copy", {"-"}},
};

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

std::string key(const std::string& plugin, const std::string& dtype, const std::string& shape,
                const std::string& block) {
  return plugin + " " + dtype + " " + shape + " block " + block;
}

// Runs the whole family on `sizes` (each written RxC, as the results write shapes) and checks
// that every case a plugin accepts is `ok` with no error, that the cases it refuses are the ones
// its acceptance rule names, and that cuBLAS is never planned for int32.
void expect_every_case_exact(const std::vector<std::string>& sizes) {
  const kbtest::Run run =
      kbtest::kbench({"run", "--family", "transpose", "--sizes", join(sizes), "--blocks",
                      join(kBlocks), "--dtypes", join(kDtypes), "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;

  std::set<std::string> expected_ok;
  for (const auto& plugin : kPlugins) {
    for (const auto& dtype : kDtypes) {
      if (dtype == "int32" && !plugin.int32) continue;
      for (const auto& size : sizes) {
        for (const auto& block : plugin.blocks) expected_ok.insert(key(plugin.name, dtype, size, block));
      }
    }
  }

  std::set<std::string> seen_ok;
  for (const auto& row : run.rows) {
    const std::string& plugin = row.at("plugin");
    const std::string& dtype = row.at("dtype");
    const std::string k = key(plugin, dtype, row.at("shape"), row.at("block"));
    const std::string& status = row.at("status");
    // cuBLAS has no int32 geam: such cases are recorded as unsupported, never run.
    if (plugin == "transpose/cublas" && dtype == "int32") {
      EXPECT_EQ(status, "unsupported") << k;
      continue;
    }
    if (status == "ok") {
      EXPECT_TRUE(expected_ok.count(k)) << "ok, but the plugin should have refused it: " << k;
      EXPECT_EQ(std::stod(row.at("max_rel_error")), 0.0) << k;
      seen_ok.insert(k);
    } else if (status == "unsupported") {
      EXPECT_FALSE(expected_ok.count(k)) << "refused: " << k << ": " << row.at("message");
    } else {
      ADD_FAILURE() << k << ": " << status << ": " << row.at("message");
    }
  }
  for (const auto& k : expected_ok) EXPECT_TRUE(seen_ok.count(k)) << "no ok row for " << k;
}

TEST(TransposeGpu, EveryPluginExactOnOddSizes) {
  KBTEST_REQUIRE_GPU();
  // Seed 004's 1111x113 and the edges of every tile size: single elements, single rows and
  // columns longer than a tile, one past a 32-tile in one direction and one short in the other.
  expect_every_case_exact({"1x1", "1x4097", "33x31", "1111x113", "4097x1"});
}

TEST(TransposeGpu, EveryPluginExactOnVectorisableSizes) {
  KBTEST_REQUIRE_GPU();
  // Divisible by 4 (and so by float64's 2) in both dimensions: transpose/fast's 16-byte path,
  // on one or several whole tiles (64x64, 256x192), partial tiles at the right and bottom edges
  // (68x132, 132x68, 1024x1028) and tiles with a few rows and columns only (4x4); 2x6 is
  // divisible by 2 only, so float64 takes the 16-byte path and the 4-byte types the other.
  expect_every_case_exact({"4x4", "2x6", "64x64", "68x132", "132x68", "256x192", "1024x1028"});
}

TEST(TransposeGpu, Seed004PresetRunsExact) {
  KBTEST_REQUIRE_GPU();
  const std::string root = KBENCH_SOURCE_DIR;  // __FILE__ is relative under ccache's base_dir
  const kbtest::Run run =
      kbtest::kbench({"run", "--config", root + "/presets/seed004-transpose.ini",
                      "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_FALSE(run.rows.empty()) << run.output;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("plugin") << ": " << row.at("message");
    EXPECT_EQ(row.at("dtype"), "int32");
    EXPECT_EQ(row.at("shape"), "1111x113");
  }
}

// The 16- and 8-bit types move bits like any other: exact wherever a plugin takes them (the
// copy, the host loop and the naive kernels), refused with the reason elsewhere.
TEST(TransposeGpu, SixteenAndEightBitTypesAreExactWhereTaken) {
  KBTEST_REQUIRE_GPU();
  const std::set<std::string> taking = {"transpose/cpu", "transpose/naive_row",
                                        "transpose/naive_col", "transpose/copy"};
  const kbtest::Run run = kbtest::kbench(
      {"run", "--family", "transpose", "--sizes", "33x31,1111x113,1024x1028", "--blocks", "32x8",
       "--dtypes", "float16,bfloat16,int8", "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::set<std::string> ok_plugins;
  for (const auto& row : run.rows) {
    const bool taken = taking.count(row.at("plugin")) > 0;
    EXPECT_EQ(row.at("status"), taken ? "ok" : "unsupported")
        << row.at("plugin") << " " << row.at("dtype") << ": " << row.at("message");
    if (row.at("status") == "ok") {
      EXPECT_EQ(row.at("max_rel_error"), "0");
      ok_plugins.insert(row.at("plugin"));
    }
  }
  EXPECT_EQ(ok_plugins, taking);
}

// transpose/fast's knobs: every tile shape in both orders, and the classic tile, exact on every
// kind of edge.
TEST(TransposeGpu, FastIsExactAtEveryTileShapeOrderAndKernel) {
  KBTEST_REQUIRE_GPU();
  const std::string sizes = "1x4097,33x31,1111x113,2x6,68x132,1024x1028";
  const kbtest::Run chunks = kbtest::kbench(
      {"run", "--plugin", "transpose/fast", "--param", "tile_bytes=128,256,512", "--param",
       "tile_height=256,512", "--param", "tile_order=rows,columns", "--param", "kernel=chunks",
       "--sizes", sizes, "--dtypes", join(kDtypes), "--max-time", "0.01"});
  ASSERT_EQ(chunks.exit_code, 0) << chunks.output;
  EXPECT_EQ(chunks.rows.size(), 3u * 2 * 2 * 6 * 3);
  const kbtest::Run classic =
      kbtest::kbench({"run", "--plugin", "transpose/fast", "--param", "kernel=classic", "--sizes",
                      sizes, "--dtypes", join(kDtypes), "--max-time", "0.01"});
  ASSERT_EQ(classic.exit_code, 0) << classic.output;
  EXPECT_EQ(classic.rows.size(), 6u * 3);
  std::set<std::string> configurations;
  for (const auto* run : {&chunks, &classic}) {
    for (const auto& row : run->rows) {
      EXPECT_EQ(row.at("status"), "ok") << row.at("params") << " " << row.at("dtype") << " "
                                        << row.at("shape") << ": " << row.at("message");
      configurations.insert(row.at("params"));
    }
  }
  EXPECT_EQ(configurations.size(), 13u);
  // The one dynamic 64 KB tile, in the order of a device with fast DRAM.
  EXPECT_TRUE(
      configurations.count("tile_bytes=512;tile_height=512;tile_order=columns;kernel=chunks"));
  EXPECT_TRUE(
      configurations.count("tile_bytes=auto;tile_height=auto;tile_order=auto;kernel=classic"));

  // A tile knob set by hand does not go with the classic kernel: unsupported, naming it, rather
  // than a row whose label says a tile that never ran.
  const kbtest::Run conflict =
      kbtest::kbench({"run", "--plugin", "transpose/fast", "--param", "kernel=classic", "--param",
                      "tile_order=columns", "--sizes", "64", "--dtypes", "float64"});
  ASSERT_EQ(conflict.rows.size(), 1u) << conflict.output;
  EXPECT_EQ(conflict.rows[0].at("status"), "unsupported");
  EXPECT_NE(conflict.rows[0].at("message").find("tile_order=columns"), std::string::npos)
      << conflict.rows[0].at("message");

  // 2^21 rows of float64 (16 MiB): more row bands than the classic 2D grid has, so auto keeps
  // the chunk tiles' 1D grid and runs it; asked for by name, the classic kernel refuses it.
  const kbtest::Run tall = kbtest::kbench({"run", "--plugin", "transpose/fast", "--param",
                                           "kernel=auto,classic", "--sizes", "2097152x1",
                                           "--dtypes", "float64", "--max-time", "0.01"});
  ASSERT_EQ(tall.rows.size(), 2u) << tall.output;
  for (const auto& row : tall.rows) {
    const bool classic = row.at("params").find("kernel=classic") != std::string::npos;
    EXPECT_EQ(row.at("status"), classic ? "unsupported" : "ok") << row.at("message");
  }
}

}  // namespace
