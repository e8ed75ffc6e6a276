// `kbench report`'s content: per family, a headline table (the best plugin per size against the
// copy ceiling or cuBLAS) and a plot of bandwidth or GFLOP/s vs size per plugin; across GPUs, the
// speed-up of each GPU over the first, per plugin.
#pragma once

#include "result_schema.hpp"

#include <string>
#include <vector>

namespace kb {

// Writes DIR/report.md and each plot's gnuplot script and data (NAME.gp, NAME.dat; report.md
// embeds NAME.png). Returns the scripts, for run_gnuplot.
std::vector<std::string> write_report(const std::vector<ResultRow>& rows, const std::string& dir);

}  // namespace kb
