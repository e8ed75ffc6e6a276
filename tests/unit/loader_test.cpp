#include "plugin/loader.hpp"
#include "support/kbench_process.hpp"

#include "util/short_of_resources.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <map>

namespace kb {
namespace {

const std::string kLoaderDir = std::string(KBT_PLUGIN_ROOT) + "/loader";

TEST(Loader, LoadsTheGoodPluginAndRefusesEachBrokenOneWithItsReason) {
  const Discovery found = kbtest::probe().discover({kLoaderDir});
  // A plugin of ABI version 1 (its KernelPlugin ends at teardown) is served as it always was.
  ASSERT_EQ(found.plugins.size(), 2u);
  EXPECT_EQ(found.plugins[0]->name, "testing/abi_v1");
  EXPECT_EQ(found.plugins[0]->abi_version, 1u);
  EXPECT_FALSE(found.plugins[0]->family_info);
  EXPECT_EQ(found.plugins[1]->name, "testing/good");
  EXPECT_EQ(found.plugins[1]->family, "testing");

  std::map<std::string, std::string> reasons;  // file name -> reason
  for (const auto& f : found.failures) {
    reasons[f.file.substr(f.file.rfind('/') + 1)] = f.reason;
  }
  const std::map<std::string, std::string> expected = {
      {"kbt_abi_version.so", "built for ABI version 99, this kbench serves ABI versions 1 to 3"},
      {"kbt_family_bad.so", "family description of 'testing': rank 5 is not 1 to 3"},
      {"kbt_param_bad.so", "parameter name 'bad name' is not letters, digits and '_'"},
      {"kbt_struct_too_small.so", "KernelPlugin is"},
      {"kbt_null_hook.so", "hook 'launch' is null"},
      {"kbt_bad_name.so", "name 'no_slash' is not of the form family/strategy"},
      {"kbt_ops_repeated.so", "ops 'sum,sumsq,sum' lists 'sum' twice"},
      {"kbt_no_entry.so", "no 'kbench_plugin' (or 'kbench_family') symbol exported"},
      {"not_a_library.so", "not a loadable shared library"},
  };
  for (const auto& [file, reason] : expected) {
    ASSERT_TRUE(reasons.count(file)) << file << " was not refused";
    EXPECT_NE(reasons[file].find(reason), std::string::npos) << file << ": " << reasons[file];
  }
  // kbt_duplicate.so and kbt_good.so define the same name: whichever sorts second is refused.
  ASSERT_TRUE(reasons.count("kbt_good.so"));
  EXPECT_NE(reasons["kbt_good.so"].find("duplicate plugin name 'testing/good'"), std::string::npos);
  EXPECT_EQ(found.failures.size(), expected.size() + 1);
}

TEST(Loader, KeepsTheLibraryAliveWhileThePluginIsUsed) {
  std::shared_ptr<const LoadedPlugin> plugin = load_plugin(kLoaderDir + "/kbt_duplicate.so");
  const KernelPlugin* api = plugin->api;
  {
    const auto other = load_plugin(kLoaderDir + "/kbt_duplicate.so");  // loads and drops it again
  }
  kb_case c{};
  c.dtype = KB_DTYPE_I32;
  c.rank = 1;
  c.shape[0] = 10;
  void* state = nullptr;
  kb_work work{};
  kb_message message{};
  ASSERT_EQ(api->setup(&c, &state, &work, &message), KB_OK);
  EXPECT_DOUBLE_EQ(work.bytes, 80.0);
  api->teardown(state);
}

TEST(Loader, SearchPathStartsNextToTheExecutableAndNeverInTheCurrentDirectory) {
  setenv("KBENCH_PLUGIN_PATH", "/opt/a:/opt/b", 1);
  const auto dirs = plugin_search_path({"/extra"});
  unsetenv("KBENCH_PLUGIN_PATH");
  ASSERT_EQ(dirs.size(), 4u);
  EXPECT_NE(dirs[0].find("lib/kbench/plugins"), std::string::npos);
  EXPECT_EQ(dirs[1], "/opt/a");
  EXPECT_EQ(dirs[2], "/opt/b");
  EXPECT_EQ(dirs[3], "/extra");
  for (const auto& d : dirs) EXPECT_NE(d, ".");
}

TEST(Loader, AMissingExtraFolderIsReported) {
  std::vector<LoadFailure> failures;
  EXPECT_TRUE(plugin_files({"/nonexistent-default", "/nonexistent-extra"}, failures).empty());
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].file, "/nonexistent-extra");
}

// With every descriptor in use (a GPU driver holds several before discovery starts), a folder
// that cannot be listed or a library that cannot be opened is kbench's shortage: it ends the
// command with that reason, never drops a plugin without a word or blames its file.
TEST(Loader, ShortOfDescriptorsIsKbenchsOwnTroubleNeverAMissingOrBrokenPlugin) {
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const rlimit few{64, 64};
    setrlimit(RLIMIT_NOFILE, &few);
    while (open("/dev/null", O_RDONLY) >= 0) {
    }
    int verdict = 0;
    std::vector<LoadFailure> failures;
    try {
      plugin_files({kLoaderDir, kLoaderDir}, failures);
      verdict |= 1;  // listed nothing, and said nothing
    } catch (const ShortOfResources& e) {
      if (std::string(e.what()).find("list the plugin folder " + kLoaderDir) == std::string::npos) {
        verdict |= 2;
      }
    }
    try {
      load_plugin(kLoaderDir + "/kbt_abi_version.so");
      verdict |= 4;
    } catch (const ShortOfResources& e) {
      if (std::string(e.what()).find("kbench's own trouble") == std::string::npos) verdict |= 8;
    } catch (const LoadError&) {
      verdict |= 16;  // blamed on the file
    }
    _exit(verdict);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "1: a folder listed as empty, 2: the folder not named, 4: a library loaded without "
         "descriptors, 8: not said as kbench's trouble, 16: blamed on the plugin's file";
}

}  // namespace
}  // namespace kb
