// The rows `compare` and `report` work on: every row of the CSV files named, narrowed to the
// families and plugin globs asked for.
#pragma once

#include "store/result_schema.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kb {

// Throws InputError naming a file that cannot be read or is corrupt, or when the files hold no
// row at all.
std::vector<ResultRow> read_results_files(const std::vector<std::string>& paths);

// A numeric cell; nothing for an empty or non-numeric one.
std::optional<double> cell_number(const std::string& text);

// Whether the row is of one of these families (none given: any) and its plugin matches one of the
// globs (none given: any).
bool row_selected(const ResultRow& row, const std::vector<std::string>& families,
                  const std::vector<std::string>& plugin_globs);

// Keeps the rows of these families (none given: all) whose plugin matches one of the globs (none
// given: all); an InputError names a family or glob that matched no row.
std::vector<ResultRow> select_rows(const std::vector<ResultRow>& rows,
                                   const std::vector<std::string>& families,
                                   const std::vector<std::string>& plugin_globs);

}  // namespace kb
