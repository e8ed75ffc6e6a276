// The headers of the CSV files kbench writes (the results, the samples of --samples-out): the one
// this kbench writes, and those older kbench versions wrote, so that a file of an older kbench is
// told from a foreign CSV. A run appends only under its own header; `kbench upgrade`
// (store/file_upgrade.hpp) brings an older kbench's file to it.
//
// The results header grows at the end: a column is added after the last one, so every prefix of
// today's header (from the first one kbench wrote that is a prefix) is an older kbench's header.
// Before that, columns were inserted mid-way: those headers are listed (`earlier`), each today's
// less the columns it lacks, found in the git history of the schema. Adding a column at the end
// needs no entry; inserting one mid-way needs today's header listed before it changes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kb {

struct FileSchema {
  std::string what;                                // "results file": names the file in messages
  std::vector<std::string> header;                 // this kbench's
  std::vector<std::vector<std::string>> earlier;   // older kbench headers that are no prefix of it
  // When non-zero, a prefix of `header` of at least this many columns is an older header too.
  std::size_t shortest_prefix = 0;
};

const FileSchema& results_schema();
const FileSchema& samples_schema();

// How a file's header stands to a schema.
struct HeaderVerdict {
  enum class Age { current, older, other };
  Age age = Age::other;
  std::vector<std::string> missing;  // older: the columns it lacks, in the header's order
  // other: the first difference from the schema's header ("column 31 is 'x', expected 'y'", "it
  // ends after 48 columns", "it has 64 columns, expected 63"), and the column it is at (0-based).
  std::string difference;
  std::size_t difference_at = 0;
};

HeaderVerdict judge_header(const FileSchema& schema, const std::vector<std::string>& found);

// A header line's names, as written (split at its commas; kbench's names hold no comma or quote).
std::vector<std::string> header_names(const std::string& line);

// "cupti_us, cupti_kernels, counters".
std::string name_list(const std::vector<std::string>& names);

}  // namespace kb
