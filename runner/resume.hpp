// A run's identity in the CSV, and the command that resumes it.
#pragma once

#include <string>
#include <vector>

namespace kb {

// "2026-11-23T20-35-48Z-host-1234": time, host and process, an id no other run has.
std::string default_run_id(const std::string& host);

// The command that runs what is missing of a run: `kbench COMMAND ARGS... --resume`, with
// `--run-id RUN_ID` added when the run did not name its own (`named` false).
std::string resume_command(const std::string& command, const std::vector<std::string>& args,
                           const std::string& run_id, bool named);

}  // namespace kb
