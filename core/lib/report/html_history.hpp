// `kbench report --history --html FILE`: the nightly trend as one page people explore. Per GPU
// model and family a chart of every case over the runs, evenly spaced in the order they started:
// its median per run (the median of its repetitions' medians, the cards of the model pooled), the
// spread of its repetitions as a band, and a red ring where the gate (`kbench compare` with the
// same rule and threshold, each run against the one before) failed it as slower. The rings and the
// table of regressions are the History's, computed here by regression_gate: the page draws them
// and decides nothing.
#pragma once

#include "analysis/history.hpp"
#include "store/result_record.hpp"

#include <string>
#include <vector>

namespace kb {

// `rows`: those `history` was computed from, for what the hover shows of each point (its
// repetitions' spread, SM clock, throttle reasons, energy) and of each run (kbench version, hosts).
// Taken whole, since all but the page's runs are let go of before the page is made.
void write_html_history(const History& history, std::vector<ResultRecord> rows,
                        const GateRequest& request, const std::string& path);

}  // namespace kb
