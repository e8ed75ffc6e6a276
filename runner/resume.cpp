#include "resume.hpp"

#include "store/row_builder.hpp"

#include <unistd.h>

namespace kb {
namespace {

std::string shell_quote(const std::string& s) {
  if (s.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=,:^+") ==
      std::string::npos) {
    return s;
  }
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

}  // namespace

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
    if (a != "--resume") text += " " + shell_quote(a);
  }
  if (!named) text += " --run-id " + shell_quote(run_id);
  return text + " --resume";
}

}  // namespace kb
