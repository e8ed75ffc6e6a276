// `kbench upgrade`: a results or samples file an older kbench wrote (store/file_schema.hpp),
// rewritten under this kbench's header so that a run can append to it again. Every cell of every
// row keeps its bytes, quotes and all; the columns the file lacks are added as empty cells where
// the header has them (at the end of each row for every file since the results header grew only
// at the end: each old line is then a prefix of its new line). The readers read an upgraded file
// as they read the file before (a missing column reads as empty).
//
// Safe beside runs: under the lock every appender of the file takes (file_lock.hpp), the upgraded
// copy is written beside the file, synced, renamed over it and the folder synced, so the file is
// either the old one or the whole new one. A run waiting to append meanwhile opens the new one
// (shared_csv_file.hpp). A file a run holds a run lock on (a run with a --run-id of an older
// kbench, appending to it now) is refused, never replaced under it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kb {

struct UpgradeOutcome {
  bool upgraded = false;            // false: the file already had this kbench's header
  std::string what;                 // "results file", "samples file"
  std::vector<std::string> added;   // the columns added, in the header's order
  std::size_t rows = 0;             // the rows rewritten
};

// Upgrades `path` in place, or leaves it as it is when it is already current (or empty). Throws
// InputError, the file untouched, for a file that is no older kbench's results or samples file
// (the message names the file and the first difference from the header it is closest to), a
// corrupt record (a row whose cells do not match its header, a quote no line closes, a NUL byte:
// the message names its line), a path that is no regular file or has other hard links
// (renaming would split them), and a file a run holds a run lock on. Throws WriteError, the file
// untouched, when the upgraded copy cannot be written (a full disk: exit 4). An incomplete last
// line (a writer was interrupted) goes to FILE.fragments as a run's repair moves it, and is said on
// standard error; a whole last row without its newline is kept and gets one.
UpgradeOutcome upgrade_file(const std::string& path);

}  // namespace kb
