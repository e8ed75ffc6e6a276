// How a comparison is printed: markdown tables for a terminal or a note, or one CSV table for a
// spreadsheet. docs/compare-and-report.md explains every cell.
#pragma once

#include "analysis/comparison.hpp"

#include <optional>
#include <string>

namespace kb {

std::string comparison_markdown(const Comparison& comparison);

// A paragraph naming the plugins whose rows came from kernel files, each file and its content
// hash (the first 12 hex digits), and where a file was edited between the rows; "" when none.
std::string kernel_files_markdown(const std::vector<KernelFileRows>& kernel_files);

// A paragraph naming the code each GPU column ran and the plugins whose rows there ran code built
// differently from the rows they are compared with; "" where no row says which code ran.
std::string codes_markdown(const Comparison& comparison);
// One line per such plugin: "transpose/fast ran ptx-jit compute_90 (ptx 9.0) on NVIDIA B200 and
// sm_90 (cuda 13.0) on NVIDIA H100 (JIT-compiled from PTX on one side)".
std::string code_difference_text(const CodeDifference& difference);
// A paragraph naming the cases whose launches ran other kernels than the rows they are held
// against, each with both, at most 20 of them; "" when none did.
std::string kernels_changed_markdown(const std::vector<KernelsDifference>& changed);
std::string comparison_csv(const Comparison& comparison);

// "2685", "127.9", "7.936": four significant digits without an exponent.
std::string format_measure(double value);
// "1.23x", and "~1.01x" when the difference lies inside the measured noise.
std::string format_speedup(double speedup, bool within_noise = false);

}  // namespace kb
