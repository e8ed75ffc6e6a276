// What people and files give kbench is taken as given and echoed as one line. A repeatable key of
// a --config file was merged with the command line's values (the README says the command line
// wins); a NUL byte in a config value cut the error line short; a plugin name holding a line break
// split its "skipped" line in two; `validate` on a folder named like a plugin said "no such file".
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <set>

namespace {

using kbtest::kbench;
namespace fs = boost::filesystem;

void write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(ConfigFile, TheCommandLineReplacesTheFilesValuesOfEveryKeyItGives) {
  const kbtest::TempFolder folder;
  const std::string config = folder.file("sweep.ini");
  write(config, "plugins = " + folder.file("no-such-folder") +
                    "\nplugin = testing/verify_wrong\nfamily = testing\nsizes = 30\n"
                    "dtypes = int32\nmax-time = 0.01\n");
  const auto run = kbench({"run", "--config", config, "--plugins",
                           kbtest::test_plugin_dir("faulty"), "--plugin", "testing/good",
                           "--sizes", "10"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.find("no-such-folder"), std::string::npos) << run.output;
  ASSERT_EQ(run.rows.size(), 1u) << run.output;
  EXPECT_EQ(run.rows[0].at("plugin"), "testing/good");
  EXPECT_EQ(run.rows[0].at("shape"), "10");
  // The keys the command line does not give still come from the file.
  EXPECT_EQ(run.rows[0].at("dtype"), "int32");

  // The same for the commands that read results back (a preset's plugins, say).
  const std::string csv = folder.file("both.csv");
  ASSERT_EQ(kbench({"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin",
                    "testing/good", "--plugin", "testing/verify_wrong", "--sizes", "10",
                    "--dtypes", "int32", "--max-time", "0.01"},
                   csv)
                .rows.size(),
            2u);
  const auto compare = kbench({"compare", csv, "--by", "plugin", "--config", config, "--plugin",
                               "testing/good"});
  EXPECT_EQ(compare.exit_code, 0) << compare.output;
  EXPECT_NE(compare.output.find("testing/good"), std::string::npos) << compare.output;
  EXPECT_EQ(compare.output.find("testing/verify_wrong"), std::string::npos) << compare.output;
}

TEST(ConfigFile, ANulByteIsNamedInOneWholeLine) {
  const kbtest::TempFolder folder;
  const std::string config = folder.file("nul.ini");
  write(config, std::string("dtypes = int32\nsizes = 12\0x3, 14\n", 33));
  const auto run = kbench({"run", "--config", config, "--plugins",
                           kbtest::test_plugin_dir("faulty"), "--plugin", "testing/good"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(run.output, "kbench: error: config file '" + config + "': line 2 holds a NUL byte\n");
}

TEST(HostileText, ASkippedPluginsLineIsOneLineWhateverItsNameHolds) {
  const std::string file =
      kbtest::test_plugin_dir("name_with_newline") + "/kbt_name_with_newline.so";
  for (const std::string command : {"list", "run"}) {
    std::vector<std::string> args = {command, "--plugins", kbtest::test_plugin_dir("name_with_newline"),
                                     "--plugins", kbtest::test_plugin_dir("faulty")};
    if (command == "run") {
      args.insert(args.end(), {"--plugin", "testing/good", "--sizes", "10", "--dtypes", "int32",
                               "--max-time", "0.01"});
    }
    const auto run = kbench(args);
    EXPECT_NE(run.output.find("kbench: skipped " + file + ": name 'testing/name\\nwith a line "
                              "break' is not printable"),
              std::string::npos)
        << run.output;
    EXPECT_EQ(run.output.find("\nwith a line break"), std::string::npos) << run.output;
  }
}

TEST(Validate, AFolderNamedLikeAPluginIsSaidToBeAFolder) {
  const kbtest::TempFolder folder;
  fs::create_directories(folder.path() / "x.so");
  auto run = kbench({"validate", folder.file("x.so")});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(run.output, "kbench: error: '" + folder.file("x.so") +
                            "' is a folder, not a plugin or kernel file\n");
  run = kbench({"validate", folder.file("y.so")});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(run.output, "kbench: error: no such file '" + folder.file("y.so") + "'\n");
}

}  // namespace
