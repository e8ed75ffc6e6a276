// Every reduce plugin, every data type, both ops, through the real `kbench run`: each case it
// accepts must come back `ok` (int32 exact, floats within the family's tolerance), on sizes that
// leave a partial vector, a partial block and a partial wave; the block rules refuse what they
// name; reduce/fast and reduce/cub also run at 2^28; seed 003's preset runs every version.
#include "../support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace {

const std::vector<std::string> kDtypes = {"float32", "float64", "int32"};
const std::vector<std::string> kOps = {"sum", "sumsq"};

struct Plugin {
  std::string name;
  std::vector<std::string> blocks;  // the blocks it accepts of those a test asks for; {"-"}: own
  bool int32 = true;
};

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

std::string key(const kbtest::Row& row) {
  return row.at("plugin") + " " + row.at("dtype") + " " + row.at("op") + " n=" + row.at("shape") +
         " block " + row.at("block");
}

// Runs `plugins` on `sizes` (written as the results write them, e.g. 1048576) and `blocks`, and
// checks that every case a plugin accepts is `ok`, that every refusal is one its rule names, and
// that no int32 case of a float-only plugin is planned.
void expect_every_case_ok(const std::vector<Plugin>& plugins, const std::vector<std::string>& sizes,
                          const std::vector<std::string>& blocks) {
  std::vector<std::string> args = {"run", "--sizes", join(sizes), "--blocks", join(blocks)};
  args.insert(args.end(), {"--dtypes", join(kDtypes), "--ops", join(kOps), "--max-time", "0.01"});
  std::set<std::string> expected_ok;
  for (const auto& plugin : plugins) {
    args.push_back("--plugin");
    args.push_back(plugin.name);
    for (const auto& dtype : kDtypes) {
      if (dtype == "int32" && !plugin.int32) continue;
      for (const auto& op : kOps) {
        for (const auto& size : sizes) {
          for (const auto& block : plugin.blocks) {
            expected_ok.insert(plugin.name + " " + dtype + " " + op + " n=" + size + " block " +
                               block);
          }
        }
      }
    }
  }
  const kbtest::Run run = kbtest::kbench(args);
  ASSERT_EQ(run.exit_code, 0) << run.output;

  std::set<std::string> seen_ok;
  for (const auto& row : run.rows) {
    const std::string k = key(row);
    const std::string& status = row.at("status");
    if (status == "ok") {
      EXPECT_TRUE(expected_ok.count(k)) << "ok, but the plugin should have refused it: " << k;
      if (row.at("dtype") == "int32") EXPECT_EQ(std::stod(row.at("max_rel_error")), 0.0) << k;
      // Compensated: within a few roundings of float32 whatever n, where a plain float sum of
      // 10^7 squares is off by far more.
      if (row.at("plugin") == "reduce/kahan" && row.at("dtype") == "float32") {
        EXPECT_LE(std::stod(row.at("max_rel_error")), 0x1.0p-22) << k;
      }
      seen_ok.insert(k);
    } else if (status == "unsupported") {
      EXPECT_FALSE(expected_ok.count(k)) << "refused: " << k << ": " << row.at("message");
      if (row.at("plugin").find("/tree_") != std::string::npos) {
        EXPECT_NE(row.at("message").find("power of two"), std::string::npos) << k;
      }
    } else {
      ADD_FAILURE() << k << ": " << status << ": " << row.at("message") << " "
                    << row.at("max_rel_error") << " > " << row.at("tolerance");
    }
  }
  for (const auto& k : expected_ok) EXPECT_TRUE(seen_ok.count(k)) << "no ok row for " << k;
}

TEST(ReduceGpu, EveryPluginOnOddSizes) {
  KBTEST_REQUIRE_GPU();
  // One element (a partial vector, one thread's work); 31 (less than a warp, 7 vectors and 3 tail
  // elements); 2^20 (seed 003); 10^7 + 3 (several waves of work, a tail of 3 after whole vectors).
  const std::vector<std::string> blocks = {"32", "256", "1024"};
  expect_every_case_ok({{"reduce/cpu", {"-"}},
                        {"reduce/single_thread", {"-"}},
                        {"reduce/one_block_chunked", blocks},
                        {"reduce/one_block_strided", blocks},
                        {"reduce/multi_block", blocks},
                        {"reduce/tree_interleaved", blocks},
                        {"reduce/tree_sequential", blocks},
                        {"reduce/tree_unrolled", blocks},
                        {"reduce/warp_shuffle", blocks},
                        {"reduce/fast", {"-"}},
                        {"reduce/kahan", blocks, /*int32=*/false},
                        {"reduce/cub", {"-"}}},
                       {"1", "31", "1048576", "10000003"}, blocks);
}

TEST(ReduceGpu, BlockRulesOnBlocksThatAreNotPowersOfTwo) {
  KBTEST_REQUIRE_GPU();
  // 96 is whole warps, 100 is not; neither is a power of two, so the trees refuse both (one
  // `unsupported` row per case), the shuffles take 96 only, the strided and chunked walks both.
  const std::vector<std::string> both = {"96", "100"};
  expect_every_case_ok({{"reduce/one_block_chunked", both},
                        {"reduce/one_block_strided", both},
                        {"reduce/multi_block", both},
                        {"reduce/tree_interleaved", {}},
                        {"reduce/tree_sequential", {}},
                        {"reduce/tree_unrolled", {}},
                        {"reduce/warp_shuffle", {"96"}},
                        {"reduce/kahan", {"96"}, /*int32=*/false}},
                       {"31", "1048576", "10000003"}, both);
}

TEST(ReduceGpu, FastKahanAndCubAt2To28) {
  KBTEST_REQUIRE_GPU();
  // The sizes; 2 GiB of float64. Kahan's float32 error must stay at float32's rounding.
  expect_every_case_ok(
      {{"reduce/fast", {"-"}}, {"reduce/kahan", {"256"}, /*int32=*/false}, {"reduce/cub", {"-"}}},
      {"268435456"}, {"256"});
}

TEST(ReduceGpu, Seed003PresetRunsEveryVersion) {
  KBTEST_REQUIRE_GPU();
  const std::string root = KBENCH_SOURCE_DIR;  // __FILE__ is relative under ccache's base_dir
  const kbtest::Run run = kbtest::kbench(
      {"run", "--config", root + "/presets/seed003-reduce.ini", "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::set<std::string> plugins;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "ok") << key(row) << ": " << row.at("message");
    EXPECT_EQ(row.at("dtype"), "int32");
    EXPECT_EQ(row.at("op"), "sumsq");
    EXPECT_EQ(row.at("shape"), "1048576");
    plugins.insert(row.at("plugin"));
  }
  EXPECT_EQ(plugins.size(), 11u) << run.output;  // every plugin but the float-only reduce/kahan
}

// float16 and bfloat16 accumulate in float32, int8 in int64: every plugin that takes them (all but
// the float-only reduce/kahan) verifies against the reference of the rounded inputs, reduce/fast
// with 8 and 16 elements per 16-byte load and sizes that leave a tail of each.
TEST(ReduceGpu, SixteenAndEightBitTypesVerify) {
  KBTEST_REQUIRE_GPU();
  const kbtest::Run run = kbtest::kbench(
      {"run", "--family", "reduce", "--sizes", "1000,100003,2^20", "--blocks", "256",
       "--dtypes", "float16,bfloat16,int8", "--ops", "sum,sumsq", "--max-time", "0.01"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::set<std::string> ok_plugins;
  for (const auto& row : run.rows) {
    if (row.at("plugin") == "reduce/kahan") {
      EXPECT_EQ(row.at("status"), "unsupported");
      continue;
    }
    EXPECT_EQ(row.at("status"), "ok") << row.at("plugin") << " " << row.at("dtype") << " "
                                      << row.at("op") << " " << row.at("shape") << ": "
                                      << row.at("message");
    ok_plugins.insert(row.at("plugin"));
  }
  for (const char* plugin : {"reduce/fast", "reduce/cub", "reduce/tree_unrolled",
                             "reduce/warp_shuffle", "reduce/single_thread", "reduce/multi_block",
                             "reduce/cpu"}) {
    EXPECT_TRUE(ok_plugins.count(plugin)) << plugin;
  }
}

}  // namespace
