// The parent/worker protocol: one record per line, "kind<TAB>key=value<TAB>...", with tabs,
// newlines and backslashes in values escaped. The parent sends `case` records on the worker's
// standard input; the worker answers on its results descriptor with one `hello` record, then one
// `result` record per case.
#pragma once

#include <map>
#include <string>

namespace kb {

using Record = std::map<std::string, std::string>;

std::string encode_record(const std::string& kind, const Record& fields);
// False when the line is not a record.
bool decode_record(const std::string& line, std::string& kind, Record& fields);

// Buffered line reading from a file descriptor, with a timeout.
class LineReader {
 public:
  explicit LineReader(int fd) : fd_(fd) {}
  enum class Status { line, eof, timeout };
  // timeout_ms < 0 waits forever.
  Status read_line(std::string& line, int timeout_ms);

 private:
  int fd_;
  std::string buffer_;
};

// Writes all of text; false when the other end is gone.
bool write_text(int fd, const std::string& text);

}  // namespace kb
