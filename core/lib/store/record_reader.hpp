// Reading results files back as records, at the scale of years of nightlies: the file streamed in
// parts read in parallel (one line a row, so a part starts after any line feed), each cell read by
// libfccp and typed once, each row judged by the filter before it is made a record. What a command
// holds follows the rows it asks about, not the file.
#pragma once

#include "store/result_record.hpp"

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace kb {

// The rows a command keeps: of these families (none: any), of a plugin matching one of these globs
// (none: any), of these runs (none: any).
struct RowFilter {
  std::vector<std::string> families, plugin_globs, runs;
};

// Which of a filter's families and globs a row of the files held, whatever the other filters said
// of it: "no row of family 'x'" names the filter that matched nothing.
struct FilterTally {
  std::vector<bool> families, plugin_globs;
  std::size_t rows = 0;          // every row read, kept or not
  std::size_t selected = 0;      // the rows of the families and globs, of any run
  std::set<std::string> runs;    // the runs of every row read
};

// Every row of `path` the filter keeps, in file order (read_results' rules: a torn last line left
// out and said on standard error, an older or newer header's columns mapped by name). Throws
// InputError naming the file, and the line, of a corrupt row. `tally`, when given, is filled in
// (sized to the filter's lists) and added to.
std::vector<ResultRecord> read_records(const std::string& path, const RowFilter& filter = {},
                                       FilterTally* tally = nullptr);

}  // namespace kb
