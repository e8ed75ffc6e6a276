// What NVIDIA's compute-sanitizer said about a run, and where the tool is. `kbench validate` runs
// a small case of a CUDA plugin under its memcheck and racecheck tools; this reads their text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kb {

// The tool's verdict on one run. Its lines start with "========= "; each process it followed
// ends with "ERROR SUMMARY: N errors" (racecheck also with "RACECHECK SUMMARY: N hazards
// displayed (E errors, W warnings)").
struct SanitizerFindings {
  bool summarized = false;  // at least one summary line: the tool ran to the end somewhere
  std::uint64_t errors = 0; // summed over every process's summary
  std::string first_error;  // the first reported error, without the "=== " prefix; "" when none
};

// Reads the tool's text (the concatenated logs of every process). A line the tool writes that is
// no banner, summary, warning or detail line (those are indented) opens an error report.
SanitizerFindings read_sanitizer_output(std::string_view text);

// The compute-sanitizer executable to use: $KBENCH_COMPUTE_SANITIZER when it is set (and then
// only that file), else the first on PATH, else $CUDA_HOME/bin, $CUDA_PATH/bin and
// /usr/local/cuda/bin. "" when there is none; `looked` then says where it looked.
std::string find_compute_sanitizer(std::string& looked);

}  // namespace kb
