#include "util/sanitizer_report.hpp"

#include <unistd.h>

#include <cstdlib>
#include <regex>
#include <sstream>
#include <vector>

namespace kb {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool executable(const std::string& path) { return !path.empty() && access(path.c_str(), X_OK) == 0; }

}  // namespace

SanitizerFindings read_sanitizer_output(std::string_view text) {
  SanitizerFindings found;
  static const std::regex error_summary(R"(ERROR SUMMARY: (\d+) error)");
  static const std::regex race_summary(R"(RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) error)");
  bool error_summaries = false;
  std::uint64_t race_errors = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // The tool's prefix: a run of '=' and one space ("========= ").
    std::size_t equals = 0;
    while (equals < line.size() && line[equals] == '=') ++equals;
    if (equals < 3 || equals >= line.size() || line[equals] != ' ') continue;
    const std::string content(line.substr(equals + 1));
    std::smatch m;
    if (std::regex_search(content, m, error_summary)) {
      found.summarized = error_summaries = true;
      found.errors += std::stoull(m[1].str());
      continue;
    }
    if (std::regex_search(content, m, race_summary)) {
      found.summarized = true;
      race_errors += std::stoull(m[1].str());
      continue;
    }
    if (content.empty() || content[0] == ' ' || content[0] == '\t') continue;  // a detail line
    if (starts_with(content, "COMPUTE-SANITIZER") || starts_with(content, "LEAK SUMMARY") ||
        starts_with(content, "Warning") || starts_with(content, "WARNING") ||
        starts_with(content, "Target application returned") || starts_with(content, "Saved host backtrace") ||
        starts_with(content, "Host Frame") || starts_with(content, "Device Frame")) {
      continue;
    }
    if (found.first_error.empty()) found.first_error = content;
  }
  // Racecheck's errors are in its ERROR SUMMARY too; its own summary counts where that is absent.
  if (!error_summaries) found.errors = race_errors;
  if (found.errors == 0) found.first_error.clear();
  return found;
}

std::string find_compute_sanitizer(std::string& looked) {
  constexpr const char* kTool = "compute-sanitizer";
  if (const char* forced = std::getenv("KBENCH_COMPUTE_SANITIZER")) {
    looked = std::string("KBENCH_COMPUTE_SANITIZER=") + forced;
    return executable(forced) ? std::string(forced) : std::string();
  }
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream list(path);
    for (std::string dir; std::getline(list, dir, ':');) {
      if (!dir.empty()) dirs.push_back(dir);
    }
  }
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* home = std::getenv(variable); home && *home) {
      dirs.push_back(std::string(home) + "/bin");
    }
  }
  dirs.push_back("/usr/local/cuda/bin");
  looked = "PATH";
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* home = std::getenv(variable); home && *home) {
      looked += std::string(", $") + variable + "/bin";
    }
  }
  looked += " and /usr/local/cuda/bin";
  for (const auto& dir : dirs) {
    const std::string candidate = dir + "/" + kTool;
    if (executable(candidate)) return candidate;
  }
  return "";
}

}  // namespace kb
