#include "protocol/record.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace kb {
namespace {

std::string escape(const std::string& value) {
  std::string out;
  for (char ch : value) {
    switch (ch) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string unescape(const std::string& value) {
  std::string out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\' && i + 1 < value.size()) {
      const char next = value[++i];
      out += next == 't' ? '\t' : next == 'n' ? '\n' : next;
    } else {
      out += value[i];
    }
  }
  return out;
}

}  // namespace

std::string encode_record(const std::string& kind, const Record& fields) {
  std::string line = kind;
  for (const auto& [key, value] : fields) line += "\t" + key + "=" + escape(value);
  return line + "\n";
}

bool decode_record(const std::string& line, std::string& kind, Record& fields) {
  fields.clear();
  std::size_t start = 0;
  bool first = true;
  while (start <= line.size()) {
    const auto end = std::min(line.find('\t', start), line.size());
    const std::string part = line.substr(start, end - start);
    if (first) {
      kind = part;
      first = false;
    } else {
      const auto eq = part.find('=');
      if (eq == std::string::npos) return false;
      fields[part.substr(0, eq)] = unescape(part.substr(eq + 1));
    }
    start = end + 1;
  }
  return !kind.empty();
}

LineReader::Status LineReader::read_line(std::string& line, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    if (const auto newline = buffer_.find('\n', scanned_); newline != std::string::npos) {
      line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      scanned_ = 0;
      return Status::line;
    }
    scanned_ = buffer_.size();
    // Bytes without end on the channel (a plugin writing on it): what the reader keeps is
    // bounded, and the line it returns is no record, so its reader takes it for one out of step.
    if (buffer_.size() > kLongestLine) {
      line = "a line of over " + std::to_string(kLongestLine >> 20) + " MiB";
      buffer_.clear();
      scanned_ = 0;
      return Status::line;
    }
    int wait_ms = -1;
    if (ended_) {
      wait_ms = 0;  // what the writer wrote before it ended is in the channel already
    } else if (timeout_ms >= 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return Status::timeout;
      wait_ms = static_cast<int>(left.count());
    }
    pollfd p[2] = {{fd_, POLLIN, 0}, {ended_fd_, POLLIN, 0}};
    const int ready = ::poll(p, ended_ || ended_fd_ < 0 ? 1 : 2, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return ended_ ? Status::eof : Status::timeout;
    if (p[0].revents == 0) {
      ended_ = true;
      continue;
    }
    char chunk[4096];
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::eof;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

bool write_text(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace kb
