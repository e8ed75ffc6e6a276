// The records `compare`, `report` and `tune --simulate` work on: every row of the CSV files named,
// read once, narrowed to the families and plugin globs asked for.
#pragma once

#include "store/result_record.hpp"

#include <string>
#include <vector>

namespace kb {

// Throws InputError naming a file that cannot be read or is corrupt, or when the files hold no
// row at all.
std::vector<ResultRecord> read_results_files(const std::vector<std::string>& paths);

// Whether the record is of one of these families (none given: any) and its plugin matches one of
// the globs (none given: any).
bool row_selected(const ResultRecord& row, const std::vector<std::string>& families,
                  const std::vector<std::string>& plugin_globs);

// Keeps the records of these families (none given: all) whose plugin matches one of the globs
// (none given: all); an InputError names a family or glob that matched no row.
std::vector<ResultRecord> select_rows(const std::vector<ResultRecord>& rows,
                                      const std::vector<std::string>& families,
                                      const std::vector<std::string>& plugin_globs);

}  // namespace kb
