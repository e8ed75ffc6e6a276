// One function per `kbench` command; each returns the process exit code. (The child modes are
// in child/child_commands.hpp.)
#pragma once

#include <string>
#include <vector>

namespace kb {

int list_command(const std::vector<std::string>& args);
int run_command(const std::vector<std::string>& args);
int tune_command(const std::vector<std::string>& args);
int compare_command(const std::vector<std::string>& args);
int report_command(const std::vector<std::string>& args);
int validate_command(const std::vector<std::string>& args);
int new_plugin_command(const std::vector<std::string>& args);
int upgrade_command(const std::vector<std::string>& args);

}  // namespace kb
