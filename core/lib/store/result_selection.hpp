// The records `compare`, `report` and `tune --simulate` work on: the rows of the CSV files named
// that the filter keeps, read once (store/record_reader.hpp).
#pragma once

#include "store/record_reader.hpp"
#include "store/result_record.hpp"

#include <string>
#include <vector>

namespace kb {

// Throws InputError naming a file that cannot be read or is corrupt, when the files hold no row at
// all, or as refuse_unmatched does.
std::vector<ResultRecord> read_selected_rows(const std::vector<std::string>& paths,
                                             const RowFilter& filter = {},
                                             FilterTally* tally = nullptr);

// One file's rows as read_selected_rows reads them, `tally` added to; no row at all is an error.
std::vector<ResultRecord> read_file_rows(const std::string& path, const RowFilter& filter,
                                         FilterTally& tally);

// An InputError naming a family or glob that matched no row, or saying that no row matched both.
void refuse_unmatched(const RowFilter& filter, const FilterTally& tally);

}  // namespace kb
