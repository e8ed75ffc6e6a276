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
std::string comparison_csv(const Comparison& comparison);

// "2685", "127.9", "7.936": four significant digits without an exponent.
std::string format_measure(double value);
// "1.23x", and "~1.01x" when the difference lies inside the measured noise.
std::string format_speedup(double speedup, bool within_noise = false);

}  // namespace kb
