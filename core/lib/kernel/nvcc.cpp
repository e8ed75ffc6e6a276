#include "kernel/nvcc.hpp"

#include "util/whole_file.hpp"

#include <boost/filesystem/operations.hpp>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <mutex>

#ifndef KBENCH_NVCC_PATH
#define KBENCH_NVCC_PATH "/usr/local/cuda/bin/nvcc"
#endif

extern char** environ;

namespace kb {
namespace fs = boost::filesystem;

namespace {

// Runs `args` (args[0] a path) with standard input from /dev/null and standard output and error
// into `log_file`; its exit status, or -1 when it could not be started.
int run_to_file(const std::vector<std::string>& args, const std::string& log_file) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int started = posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A folder of this compile's own under $TMPDIR (the sandbox's), removed with it.
class ScratchFolder {
 public:
  ScratchFolder() {
    boost::system::error_code error;
    path_ = fs::temp_directory_path(error) / fs::unique_path("kbench-nvcc-%%%%-%%%%-%%%%");
    fs::create_directories(path_, error);
    if (error) path_.clear();
  }
  ~ScratchFolder() {
    boost::system::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

bool write_file(const fs::path& file, const std::string& text) {
  std::ofstream out(file.string(), std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out.flush());
}

// "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0.88".
std::string version_of(const std::string& text) {
  const auto at = text.find(", V");
  if (at == std::string::npos) return "";
  const auto end = text.find_first_of(" \n\r", at + 3);
  return text.substr(at + 3, end == std::string::npos ? std::string::npos : end - at - 3);
}

}  // namespace

const Nvcc* Nvcc::instance(std::string* why) {
  static std::once_flag once;
  static Nvcc* found = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    std::vector<std::string> candidates;
    if (const char* named = std::getenv("KBENCH_NVCC"); named && *named) {
      candidates.push_back(named);
    } else {
      candidates.push_back(KBENCH_NVCC_PATH);
      if (const char* home = std::getenv("CUDA_HOME"); home && *home) {
        candidates.push_back(std::string(home) + "/bin/nvcc");
      }
    }
    std::string tried;
    for (const auto& path : candidates) {
      tried += (tried.empty() ? "" : ", ") + path;
      if (access(path.c_str(), X_OK) != 0) continue;
      const ScratchFolder folder;
      if (folder.path().empty()) continue;
      const std::string log = (folder.path() / "version.txt").string();
      if (run_to_file({path, "--version"}, log) != 0) continue;
      const std::string version = version_of(read_whole_file(log).value_or(""));
      if (version.empty()) continue;
      found = new Nvcc();
      found->path_ = path;
      found->version_ = version;
      return;
    }
    failure = "nvcc (the CUDA toolkit's compiler) not found: tried " + tried +
              "; set KBENCH_NVCC to it";
  });
  if (found == nullptr && why != nullptr) *why = failure;
  return found;
}

Nvcc::Result Nvcc::compile(const std::string& source, const std::string& prelude,
                           const std::vector<std::string>& options) const {
  Result result;
  const ScratchFolder folder;
  if (folder.path().empty()) {
    result.log = "nvcc: cannot make a folder under the temporary folder";
    return result;
  }
  const fs::path input = folder.path() / "kernel.cu";
  const fs::path header = folder.path() / "prelude.h";
  const fs::path output = folder.path() / "kernel.cubin";
  const std::string log = (folder.path() / "log.txt").string();
  if (!write_file(input, source) || !write_file(header, prelude)) {
    result.log = "nvcc: cannot write its input under " + folder.path().string();
    return result;
  }
  std::vector<std::string> args = {path_, "-cubin", "-o", output.string(), "-include",
                                   header.string()};
  args.insert(args.end(), options.begin(), options.end());
  args.push_back(input.string());
  const int status = run_to_file(args, log);
  result.log = read_whole_file(log).value_or("");
  if (status != 0) {
    if (result.log.empty()) {
      result.log = status < 0 ? "nvcc could not be started" : "nvcc exited with " + std::to_string(status);
    }
    return result;
  }
  result.cubin = read_whole_file(output.string()).value_or("");
  result.ok = !result.cubin.empty();
  if (!result.ok) result.log = "nvcc wrote no cubin" + (result.log.empty() ? "" : ": " + result.log);
  return result;
}

}  // namespace kb
