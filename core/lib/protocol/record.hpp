// The parent/worker protocol: one record per line, "kind<TAB>key=value<TAB>...", with tabs,
// newlines and backslashes in values escaped. The parent sends `case` records on the worker's
// standard input; the worker answers on its results descriptor with one `hello` record, then one
// `result` record per case.
#pragma once

#include <cstddef>
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
  // `ended_fd`, when given, becomes readable once the writer process has ended (its pidfd). The
  // reader then returns the lines the writer wrote before it ended, and the end of the stream,
  // even while another process (a child the writer left behind) still holds the channel open:
  // the writer's end is noticed from the writer, not from the channel.
  explicit LineReader(int fd, int ended_fd = -1) : fd_(fd), ended_fd_(ended_fd) {}
  enum class Status { line, eof, timeout };
  // timeout_ms < 0 waits forever.
  Status read_line(std::string& line, int timeout_ms);

 private:
  // Far beyond any record (a result with every sample kept is a few MiB at most).
  static constexpr std::size_t kLongestLine = std::size_t{64} << 20;

  int fd_;
  int ended_fd_;
  bool ended_ = false;
  std::string buffer_;
  std::size_t scanned_ = 0;  // bytes of buffer_ known to hold no line feed
};

// Writes all of text; false when the other end is gone.
bool write_text(int fd, const std::string& text);

}  // namespace kb
