#include "resume.hpp"

#include "judge/row_builder.hpp"
#include "util/shell_word.hpp"

#include <unistd.h>

namespace kb {

std::string default_run_id(const std::string& host) {
  std::string stamp = utc_timestamp();
  for (char& ch : stamp) {
    if (ch == ':') ch = '-';
  }
  return stamp + "-" + host + "-" + std::to_string(getpid());
}

std::string resume_command(const std::string& command, const std::vector<std::string>& args,
                           const std::string& run_id, bool named) {
  std::string text = "kbench " + command;
  for (const auto& a : args) {
    if (a != "--resume") text += " " + shell_word(a);
  }
  if (!named) text += " --run-id " + shell_word(run_id);
  return text + " --resume";
}

}  // namespace kb
