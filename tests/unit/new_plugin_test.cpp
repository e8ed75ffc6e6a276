// `kbench new-plugin`: a version 3 strategy from the family's scaffold, kbench's own or one shipped
// beside a family from outside; the generated CMakeLists.txt says where that family's referee is.
// (tests/sdk_test.sh builds, validates and runs every scaffold against the installed SDK.)
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace {

using kbtest::kbench;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(NewPlugin, ScaffoldsAVersion3StrategyOnTheFamilysOperands) {
  const kbtest::TempFolder folder;
  for (const std::string family : {"transpose", "reduce", "matmul"}) {
    for (const bool host : {false, true}) {
      const std::string name = "mine_" + family + (host ? "_host" : "");
      std::vector<std::string> args = {"new-plugin", name, "--family", family, "-o",
                                       folder.file(name)};
      if (host) args.push_back("--host");
      const auto run = kbench(args);
      ASSERT_EQ(run.exit_code, 0) << run.output;
      const std::string source =
          kbtest::read_file(folder.file(name) + "/" + name + (host ? ".cpp" : ".cu"));
      EXPECT_TRUE(contains(source, "KBENCH_STRATEGY(kb::" + family + "::Operands")) << source;
      EXPECT_TRUE(contains(source, "\"" + family + "/" + name + "\"")) << source;
      EXPECT_FALSE(contains(source, "KBENCH_PLUGIN(")) << source;
      EXPECT_FALSE(contains(source, "@NAME@")) << source;
      const std::string cmake = kbtest::read_file(folder.file(name) + "/CMakeLists.txt");
      EXPECT_TRUE(contains(cmake, "find_package(kbench REQUIRED)")) << cmake;
      EXPECT_TRUE(contains(cmake, "kbench_add_plugin(" + name + " SOURCES ")) << cmake;
      EXPECT_TRUE(contains(cmake, "library is its referee")) << cmake;
      // kbench's own families are installed with it: no folder to name.
      EXPECT_TRUE(contains(cmake, "#   kbench validate build/" + name + ".so\n")) << cmake;
    }
  }
}

TEST(NewPlugin, AFamilyFromOutsideIsScaffoldedFromItsFolderWhichHoldsItsReferee) {
  const kbtest::TempFolder folder;
  const std::string family_dir = folder.file("scan_build");
  boost::filesystem::create_directories(family_dir + "/templates");
  std::ofstream(family_dir + "/templates/scan.cu.in") << "// scan/@NAME@: \"scan/@NAME@\"\n";
  const auto run = kbench({"new-plugin", "mine", "--family", "scan", "--plugins", family_dir,
                           "-o", folder.file("mine")});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "check: kbench validate ")) << run.output;
  EXPECT_TRUE(contains(run.output, "--plugins " + family_dir)) << run.output;
  const std::string source = kbtest::read_file(folder.file("mine") + "/mine.cu");
  EXPECT_TRUE(contains(source, "\"scan/mine\"")) << source;
  const std::string cmake = kbtest::read_file(folder.file("mine") + "/CMakeLists.txt");
  EXPECT_TRUE(contains(cmake, "kbench validate build/mine.so --plugins " + family_dir)) << cmake;
  EXPECT_TRUE(contains(cmake, "kbench run --plugins build --plugins " + family_dir +
                                  " --family scan"))
      << cmake;
}

TEST(NewPlugin, RefusesWhatItCannotScaffold) {
  const kbtest::TempFolder folder;
  const auto unknown = kbench({"new-plugin", "mine", "--family", "nosuch", "-o", folder.file("a")});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_TRUE(contains(unknown.output, "no scaffold 'nosuch.cu.in' for family 'nosuch'"))
      << unknown.output;
  const auto bad = kbench({"new-plugin", "9lives", "--family", "transpose", "-o", folder.file("b")});
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_TRUE(contains(bad.output, "must be letters, digits and _")) << bad.output;
  const auto first = kbench({"new-plugin", "twice", "--family", "transpose", "-o", folder.file("c")});
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const auto second = kbench({"new-plugin", "twice", "--family", "transpose", "-o", folder.file("c")});
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_TRUE(contains(second.output, "already exists")) << second.output;
}

// The commands it prints are pasted into a shell: a folder holding a space, a quote or `$(...)`
// is one word there, and runs nothing.
TEST(NewPlugin, TheCommandsItSuggestsQuoteTheFolderAsOneShellWord) {
  const kbtest::TempFolder folder;
  const std::string output = folder.file("my plugin's $(touch ran)");
  const auto run = kbench({"new-plugin", "mine", "--family", "transpose", "-o", output});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string check = "check: kbench validate ";
  const auto at = run.output.find(check);
  ASSERT_NE(at, std::string::npos) << run.output;
  const std::string words =
      run.output.substr(at + check.size(), run.output.find('\n', at) - at - check.size());
  // The shell reads the words back: one, the plugin file.
  const std::string read_back = folder.file("words");
  const std::string command = "cd " + folder.path().string() + " && printf '%s\\n' " + words +
                              " > " + read_back;
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  EXPECT_EQ(kbtest::read_file(read_back), output + "/build/mine.so\n") << run.output;
  EXPECT_FALSE(boost::filesystem::exists(folder.file("ran")));
  EXPECT_NE(run.output.find("build: cmake -S '" + folder.path().string() + "/my plugin'\\''s $(touch ran)' -B "),
            std::string::npos)
      << run.output;
}

}  // namespace
