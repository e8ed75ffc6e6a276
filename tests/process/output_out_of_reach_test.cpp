// A file kbench writes must lie out of the plugins' reach. The sandbox grants a plugin writes
// beneath a few folders a GPU run needs (protocol/sandbox.hpp: the devices and shared memory, the
// caches, its own temporary folder), and a results file kept there (/dev/shm, ~/.cache) was
// truncated to its header by a plugin that found it through the parent's command line: the earlier
// rows gone, exit 0. `run` and `tune` now refuse such a file, by any path, before writing anything.
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>

namespace {

using kbtest::kbench;
namespace fs = boost::filesystem;

// Sets environment variables for the test's kbench processes, and puts them back.
class Environment {
 public:
  explicit Environment(const std::map<std::string, std::string>& values) {
    for (const auto& [name, value] : values) {
      const char* was = std::getenv(name.c_str());
      before_[name] = was ? std::optional<std::string>(was) : std::nullopt;
      setenv(name.c_str(), value.c_str(), 1);
    }
  }
  ~Environment() {
    for (const auto& [name, value] : before_) {
      value ? setenv(name.c_str(), value->c_str(), 1) : unsetenv(name.c_str());
    }
  }

 private:
  std::map<std::string, std::optional<std::string>> before_;
};

TEST(OutputOutOfReach, AFileBeneathAFolderThePluginsMayWriteIsRefusedBeforeAnythingIsWritten) {
  const kbtest::TempFolder folder;
  const Environment environment({{"HOME", folder.file("home")},
                                 {"XDG_CACHE_HOME", folder.file("xdg")},
                                 {"CUDA_CACHE_PATH", folder.file("cuda")},
                                 {"KBENCH_CACHE_DIR", folder.file("kernels")}});
  for (const char* made : {"home/.cache", "home/.nv", "xdg", "cuda", "kernels"}) {
    fs::create_directories(folder.path() / made);
  }
  fs::create_symlink("/dev/shm", folder.path() / "shm-link");
  // A child's own temporary folder: a child of that pid would remove it as it starts.
  const fs::path child_folder = fs::temp_directory_path() / "kbench-4194000";
  fs::create_directories(child_folder);
  const std::vector<std::string> within = {
      "/dev/shm/kbt-results.csv",
      "/tmp/../dev/shm/kbt-results.csv",
      folder.file("shm-link") + "/kbt-results.csv",
      folder.file("home") + "/.cache/results.csv",
      folder.file("home") + "/.nv/results.csv",
      folder.file("xdg") + "/results.csv",
      folder.file("cuda") + "/results.csv",
      folder.file("kernels") + "/results.csv",
      (child_folder / "results.csv").string(),
  };
  const std::vector<std::string> sweep = {"--plugins", kbtest::test_plugin_dir("faulty"),
                                          "--plugin", "testing/good", "--sizes", "10",
                                          "--dtypes", "int32", "--max-time", "0.01"};
  const std::string elsewhere = folder.file("results.csv");
  for (const auto& file : within) {
    SCOPED_TRACE(file);
    fs::remove(file);  // a file an earlier kbench left there
    // `run`'s results file (kbench() names it, last) and samples file, and `tune`'s results file.
    struct Try {
      std::vector<std::string> args;
      std::string results, option;
    };
    const std::vector<Try> tries = {{{"run"}, file, "--output"},
                                    {{"run", "--samples-out", file}, elsewhere, "--samples-out"},
                                    {{"tune", "--output", file}, "", "--output"}};
    for (auto [args, results, option] : tries) {
      args.insert(args.end(), sweep.begin(), sweep.end());
      const auto run = kbench(args, results);
      EXPECT_EQ(run.exit_code, 2) << run.output;
      EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
      EXPECT_NE(run.output.find(option + " '" + file + "' lies beneath "), std::string::npos)
          << run.output;
      EXPECT_FALSE(fs::exists(file));
      EXPECT_FALSE(fs::exists(elsewhere));
    }
  }
  fs::remove_all(child_folder);
  // Anywhere else, as before.
  std::vector<std::string> args = {"run"};
  args.insert(args.end(), sweep.begin(), sweep.end());
  const auto run = kbench(args, elsewhere);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.rows.size(), 1u) << run.output;
}

}  // namespace
