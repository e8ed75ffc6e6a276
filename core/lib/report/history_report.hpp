// `kbench report --history`: DIR/history.md, a table of the runs, and per family one trend plot
// (every case's median time per run, relative to its median over the runs, a line per case
// coloured by plugin) with the gate's regressions marked in red and listed under it.
#pragma once

#include "analysis/history.hpp"

#include <string>
#include <vector>

namespace kb {

// Writes DIR/history.md and each plot's script and data; returns the scripts, for run_gnuplot.
// Takes the history to change its keys in place: a long one is hundreds of MB.
std::vector<std::string> write_history(History history, const GateRequest& request,
                                       const std::string& dir);

}  // namespace kb
