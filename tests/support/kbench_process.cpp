#include "support/kbench_process.hpp"

#include "device/device_info.hpp"
#include "store/results_store.hpp"

#include <boost/filesystem.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <fstream>
#include <cstdio>

namespace kbtest {

namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

}  // namespace

pid_t spawn_kbench(const std::vector<std::string>& args, const std::string& log, bool own_group) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (own_group) setpgid(0, 0);
    std::vector<char*> argv{const_cast<char*>(KBENCH_EXE)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (freopen(log.c_str(), "w", stdout) != nullptr) dup2(fileno(stdout), 2);
    execv(KBENCH_EXE, argv.data());
    _exit(127);
  }
  if (own_group) setpgid(pid, pid);  // also here: the caller may signal the group at once
  return pid;
}

TempFolder::TempFolder()
    : path_(boost::filesystem::temp_directory_path() /
            boost::filesystem::unique_path("kbench-test-%%%%-%%%%")) {
  boost::filesystem::create_directories(path_);
}

TempFolder::~TempFolder() {
  boost::system::error_code ignored;
  boost::filesystem::remove_all(path_, ignored);
}

FileSizeLimit::FileSizeLimit(unsigned long long bytes) {
  rlimit limit{};
  getrlimit(RLIMIT_FSIZE, &limit);
  before_ = limit.rlim_cur;
  limit.rlim_cur = bytes;
  setrlimit(RLIMIT_FSIZE, &limit);
}

FileSizeLimit::~FileSizeLimit() {
  rlimit limit{};
  getrlimit(RLIMIT_FSIZE, &limit);
  limit.rlim_cur = before_;
  setrlimit(RLIMIT_FSIZE, &limit);
}

int count_lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string test_plugin_dir(const std::string& name) {
  return std::string(KBT_PLUGIN_ROOT) + "/" + name;
}

Run kbench(const std::vector<std::string>& args, const std::string& given_csv) {
  namespace fs = boost::filesystem;
  const TempFolder folder;
  const std::string csv = given_csv.empty() ? folder.file("results.csv") : given_csv;

  std::string command = shell_quote(KBENCH_EXE);
  for (const auto& a : args) command += " " + shell_quote(a);
  if (!args.empty() && args.front() == "run") command += " --output " + shell_quote(csv);
  command += " 2>&1";

  Run run;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[4096];
    size_t n = 0;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  try {
    if (fs::exists(csv) && fs::file_size(csv) > 0) {
      for (const auto& row : kb::read_results(csv)) {
        Row cells;
        for (std::size_t i = 0; i < kb::kResultColumnCount; ++i) {
          cells[kb::kResultHeader[i]] = kb::cell_at(row, i);
        }
        run.rows.push_back(std::move(cells));
      }
    }
  } catch (const std::exception& e) {
    run.csv_error = e.what();
  }
  return run;
}

kb::PluginProbe& probe() {
  static kb::PluginProbe shared(KBENCH_EXE, 60);
  return shared;
}

std::vector<std::shared_ptr<const kb::PluginInfo>> test_plugins(const std::string& folder) {
  return probe().discover({test_plugin_dir(folder)}).plugins;
}

bool cuda_device_present() { return kb::cuda_device_count(nullptr) > 0; }

}  // namespace kbtest
