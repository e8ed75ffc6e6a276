// An append-only CSV file that several processes share (the results, the samples). Each append
// writes whole lines under an exclusive lock on the file (file_lock.hpp) and is undone (truncated
// back) when the write fails, so the file never holds half a row. A file that does not end in a
// newline (a writer killed mid row, a disk that filled up under another program) is repaired
// before anything is added: the incomplete last line is moved to FILE.fragments and reported,
// never merged with a new row; a last line that is a whole row lacking only its newline gets it.
// Before each append the path must still name the file opened: one replaced or removed under the
// run stops it (WriteError), rather than its rows going to a file no one will read. A file an
// older kbench wrote (store/file_schema.hpp) is refused with the command that upgrades it.
#pragma once

#include "store/csv_records.hpp"
#include "store/file_schema.hpp"
#include "util/write_error.hpp"

#include <sys/types.h>

#include <mutex>
#include <string>
#include <vector>

namespace kb {

class SharedCsvFile {
 public:
  // Opens or creates `path` (and its folder), repairs an incomplete last line, writes the schema's
  // header when the file is empty and otherwise checks it. InputError: the path is not a regular
  // file, cannot be opened, or has another header: an older kbench's (the message names the
  // columns it lacks and `kbench upgrade FILE`), or any other (the message names the file and the
  // first differing column), or a corrupt record after it (a row of other cells, an open quote, a
  // NUL byte: the message names the file and its line), the file untouched. WriteError: the header or the repair could not be written. A file
  // replaced while this waited for its lock (`kbench upgrade` renames the upgraded copy over it)
  // is opened again.
  SharedCsvFile(std::string path, FileSchema schema);
  // A file of `header` alone, no older one known; `what` names it in messages ("test file").
  SharedCsvFile(std::string path, std::vector<std::string> header, std::string what);
  ~SharedCsvFile();
  SharedCsvFile(const SharedCsvFile&) = delete;
  SharedCsvFile& operator=(const SharedCsvFile&) = delete;

  // Where one append put its lines.
  struct Span {
    long long begin = 0, end = 0;
  };
  // Appends `lines` (whole CSV lines) with one write under the lock; on failure truncates the
  // file back to where it was and throws WriteError. Safe to call from several threads.
  Span append(const std::string& lines);
  // Takes an append back while nothing was appended after it (then it stays; false).
  bool undo(const Span& span);
  const std::string& path() const { return path_; }

 private:
  void repair_incomplete_line();
  void repair(const CsvRecordShape& last);
  void move_aside(off_t begin, std::size_t line);
  void check_still_the_file() const;
  Span write_or_undo(const std::string& text);
  bool open_and_check();
  void check_file();
  [[noreturn]] void refuse_header(const std::string& found) const;
  std::string path_, what_, header_line_;
  FileSchema schema_;
  int fd_ = -1;
  dev_t device_ = 0;  // the file opened, to tell it from one put in its place
  ino_t inode_ = 0;
  std::mutex mutex_;  // the file's lock excludes other opens of it, not threads sharing this one
};

// The part of `content` up to and including its last newline, or all of it (a newline added) when
// its last line is a whole row without one: what a reader may trust. `fragment` receives the
// rest, the incomplete line a killed writer left, if any.
std::string complete_lines(const std::string& content, std::string* fragment = nullptr);

}  // namespace kb
