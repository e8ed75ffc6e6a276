// A plugin file answers for itself alone. One probe process used to load every file of the
// folders and answer every question: a constructor of one plugin, merely present in a folder,
// relayed the probe's answer channel and made every other plugin's cases `unsupported` (exit 0,
// and --resume skipped them); one that forged kbench's own shortage on it, used up its
// descriptors or lowered their limit ended every `run` and `list` of that folder with exit 3 and
// no row. Each file now has a probe of its own (protocol/file_probe.hpp). The plugins are real
// libraries (tests/plugins/test_plugin.cpp), each in a folder of its own.
#include "case/case_spec.hpp"
#include "protocol/codec.hpp"
#include "protocol/worker_process.hpp"
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

namespace {

using kbtest::kbench;

// testing/good, from the folder of faulty plugins (which load fine), after the folder of `fault`:
// the plugin of `fault` is loaded first, as a folder given before another is.
std::vector<std::string> beside(const std::string& command, const std::string& fault) {
  std::vector<std::string> args = {command, "--plugins", kbtest::test_plugin_dir(fault),
                                   "--plugins", kbtest::test_plugin_dir("faulty")};
  if (command == "run") {
    for (const char* arg : {"--plugin", "testing/good", "--sizes", "10,20", "--dtypes", "int32",
                            "--max-time", "0.01"}) {
      args.push_back(arg);
    }
  }
  return args;
}

void expect_good_rows(const kbtest::Run& run) {
  ASSERT_EQ(run.rows.size(), 2u) << run.output;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("plugin"), "testing/good");
    EXPECT_EQ(row.at("status"), "ok") << row.at("message");
  }
  EXPECT_EQ(run.output.find("kbench's own trouble"), std::string::npos) << run.output;
}

TEST(OneFile, AConstructorRelayingTheProbesChannelDecidesNoOtherPluginsCases) {
  const auto run = kbench(beside("run", "load_relays_verdicts"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  expect_good_rows(run);
  // Its own verdicts it may refuse.
  const auto own = kbench({"run", "--plugins", kbtest::test_plugin_dir("load_relays_verdicts"),
                           "--plugin", "testing/load_relays_verdicts", "--sizes", "10", "--dtypes",
                           "int32", "--max-time", "0.01"});
  ASSERT_EQ(own.rows.size(), 1u) << own.output;
  EXPECT_EQ(own.rows[0].at("status"), "unsupported");
}

TEST(OneFile, WhatAPluginDoesToItsOwnProbeCostsNoOtherFileInRunOrList) {
  for (const char* fault :
       {"load_forges_short", "load_leaks_descriptors", "load_lowers_descriptor_limit"}) {
    SCOPED_TRACE(fault);
    const auto run = kbench(beside("run", fault));
    expect_good_rows(run);
    const auto list = kbench(beside("list", fault));
    EXPECT_EQ(list.exit_code, 0) << list.output;
    EXPECT_NE(list.output.find("| testing/good |"), std::string::npos) << list.output;
    EXPECT_EQ(list.output.find("kbench's own trouble"), std::string::npos) << list.output;
  }
  // A forged shortage is the file's: skipped in one line, and the run says files were skipped.
  const auto run = kbench(beside("run", "load_forges_short"));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("kbench: skipped " + kbtest::test_plugin_dir("load_forges_short") +
                            "/kbt_load_forges_short.so: "),
            std::string::npos)
      << run.output;
}

// The probe itself holds to it: a request about a second file is refused, whatever the parent
// asks.
TEST(OneFile, AProbeAnswersForTheFileItLoadedAndNoOther) {
  kb::WorkerProcess probe({KBENCH_EXE, "probe"});
  const std::string good = kbtest::test_plugin_dir("faulty") + "/kbt_fault_free.so";
  const std::string other = kbtest::test_plugin_dir("faulty") + "/kbt_setup_error.so";
  kb::CaseRequest small;
  small.dtype = KB_DTYPE_I32;
  small.shape = kb::parse_sizes("10")[0];
  std::string kind;
  kb::Record fields;
  const auto answer = [&](const std::string& request, const std::string& file) {
    kb::Record asked = kb::encode_case(small);
    asked["file"] = file;
    EXPECT_TRUE(probe.send(request, asked));
    do {
      EXPECT_EQ(probe.receive(kind, fields, 10000), kb::WorkerProcess::Received::record);
    } while (kind == "step");
    return kind;
  };
  EXPECT_EQ(answer("load", good), "plugin");
  EXPECT_EQ(fields["name"], "testing/good");
  for (const char* request : {"load", "accepts"}) {
    EXPECT_EQ(answer(request, other), "refused") << request;
    EXPECT_EQ(fields["reason"], "this probe answers for " + good + " alone");
  }
  EXPECT_EQ(answer("accepts", good), "verdict");
}

}  // namespace
