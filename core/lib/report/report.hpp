// `kbench report`: one page a person reads first — the GPU models and their cards, each family's
// best plugin per model against its roof, the expected scaling between models, the roofline —
// then the details: the cards, the scaling per case, and per family a headline table and a plot
// per GPU model.
#pragma once

#include "plugin/family_table.hpp"
#include "store/result_record.hpp"
#include "store/rows_view.hpp"

#include <string>
#include <vector>

namespace kb {

// Writes DIR/report.md and each plot's gnuplot script and data (NAME.gp, NAME.dat; report.md
// embeds NAME.png). Returns the scripts, for run_gnuplot.
// `families`: the descriptions of the families (their headline and reference plugin), as the
// plugins installed give them.
std::vector<std::string> write_report(RowsView rows, const FamilyTable& families,
                                      const std::string& dir);

}  // namespace kb
