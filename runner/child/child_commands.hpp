// The child processes `kbench` starts itself, one function per mode: they are where plugin code
// runs (probe, worker, compile) or where the family judges it (referee), and nothing of the parent
// is theirs to include.
#pragma once

#include <string>
#include <vector>

namespace kb {

int worker_command(const std::vector<std::string>& args);
int probe_command(const std::vector<std::string>& args);
int referee_command(const std::vector<std::string>& args);
int compile_command(const std::vector<std::string>& args);

}  // namespace kb
