// `kbench report --html FILE`: the report as one page people explore. Its first page is
// report.md's (the GPU models, the best per family against its roof, the scaling, the roofline),
// with the scaling and the roofline drawn as charts to hover; then an explorer of every case (a
// family, a data type and op, all sizes or one shape; the plugins toggled; log axes), each point
// the value `kbench compare --by gpu` gives the case, its hover the row behind it (run, kbench
// version, SM clock, throttle reasons, energy); then report.md's details.
#pragma once

#include "plugin/family_table.hpp"
#include "store/result_record.hpp"
#include "store/rows_view.hpp"

#include <string>
#include <vector>

namespace kb {

// `markdown`: report.md as write_report wrote it from the same rows.
void write_html_report(RowsView rows, const FamilyTable& families, const std::string& markdown,
                       const std::string& path);

}  // namespace kb
