#include "store/shared_csv_file.hpp"

#include "store/csv_records.hpp"
#include "store/file_lock.hpp"
#include "util/csv.hpp"
#include "util/input_error.hpp"
#include "util/output_file.hpp"
#include "util/seconds_since.hpp"
#include "util/shell_word.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/filesystem/operations.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string_view>
#include <thread>

namespace kb {
namespace {

// An append holds the lock for milliseconds. Held far longer, it is held by something stuck, or by
// a process that took it to stall the run (reading the file is enough to lock a byte of it): the
// run says it is waiting, and then stops with its resume command rather than hang.
constexpr double kAppendLockSayAfterSeconds = 5;
constexpr double kAppendLockPatienceSeconds = 60;

// KBENCH_TEST_APPEND_LOCK_PATIENCE=S (docs/nothing-lost.md): the patience, for a test.
double append_lock_patience() {
  const char* test = std::getenv("KBENCH_TEST_APPEND_LOCK_PATIENCE");
  return test != nullptr ? std::strtod(test, nullptr) : kAppendLockPatienceSeconds;
}

// Holds the file's append lock (file_lock.hpp) for its lifetime.
class AppendLock {
 public:
  AppendLock(int fd, const std::string& what) : fd_(fd) {
    const auto start = SteadyClock::now();
    const double patience = append_lock_patience();
    auto pause = std::chrono::milliseconds(1);
    bool said = false;
    while (!lock_byte(fd_, kAppendLockByte, /*wait=*/false)) {
      // Another failure than a lock held elsewhere (no locks on this file system) locks nothing,
      // as it did when the wait was unbounded.
      if (errno != EAGAIN && errno != EACCES) return;
      const double waited = seconds_since(start);
      if (waited >= patience) {
        throw WriteError(what + ": another process has held its append lock for " +
                         std::to_string(static_cast<int>(waited)) +
                         " s (a kbench that hangs, or a plugin holding it to stall the run)");
      }
      if (!said && waited >= kAppendLockSayAfterSeconds) {
        std::cerr << "kbench: waiting for " << what << ": another process holds its append lock\n";
        said = true;
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::milliseconds(100));
    }
  }
  ~AppendLock() { unlock_byte(fd_, kAppendLockByte); }
  AppendLock(const AppendLock&) = delete;
  AppendLock& operator=(const AppendLock&) = delete;

 private:
  int fd_;
};

// The fields of one CSV line, or nothing when it ends inside a quoted field.
std::optional<std::size_t> field_count(std::string_view line) {
  const std::vector<CsvRecord> records = csv_records(line);
  if (records.empty()) return 1;  // an empty line: one empty field
  if (records.size() > 1 || !records.front().quotes_closed) return std::nullopt;
  return records.front().fields.size();
}

// A last line without its newline is a whole row when it has the header's fields and closes its
// quotes (an editor or another tool left the newline out); a row cut short by a killed writer or
// a full disk lacks fields or a closing quote. The header itself, cut short, is never whole.
bool whole_row(std::string_view header, std::string_view line) {
  const auto fields = field_count(line);
  return fields && fields == field_count(header);
}

off_t file_size(int fd) {
  struct stat info {};
  return fstat(fd, &info) == 0 ? info.st_size : 0;
}

// The file's first line, read no further than `limit` bytes (a file of random bytes may hold no
// line feed at all), and whether a line feed ended it.
std::pair<std::string, bool> read_first_line(int fd, std::size_t limit) {
  std::string line;
  char buffer[4096];
  off_t offset = 0;
  while (line.size() < limit) {
    const ssize_t n = ::pread(fd, buffer, sizeof buffer, offset);
    if (n <= 0) return {line, false};
    for (ssize_t i = 0; i < n; ++i) {
      if (buffer[i] == '\n') return {line, true};
      line += buffer[i];
    }
    offset += n;
  }
  return {line, false};
}

}  // namespace

std::string complete_lines(const std::string& content, std::string* fragment) {
  const auto last_newline = content.rfind('\n');
  const std::size_t keep = last_newline == std::string::npos ? 0 : last_newline + 1;
  const std::string_view rest = std::string_view(content).substr(keep);
  if (keep > 0 && !rest.empty() &&
      whole_row(std::string_view(content).substr(0, content.find('\n')), rest)) {
    if (fragment != nullptr) fragment->clear();
    return content + "\n";
  }
  if (fragment != nullptr) *fragment = std::string(rest);
  return content.substr(0, keep);
}

SharedCsvFile::SharedCsvFile(std::string path, FileSchema schema)
    : path_(std::move(path)), what_(schema.what), header_line_(csv_line(schema.header)),
      schema_(std::move(schema)) {
  const auto parent = boost::filesystem::path(path_).parent_path();
  boost::system::error_code ignored;
  if (!parent.empty()) boost::filesystem::create_directories(parent, ignored);
  // `kbench upgrade` replaces the file by rename while holding the old one's lock: a run that
  // waited for that lock opens the upgraded file. (A bound, against a path replaced forever.)
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (open_and_check()) return;
  }
  throw InputError(what_ + " '" + path_ +
                   "' was replaced again and again while kbench opened it");
}

SharedCsvFile::SharedCsvFile(std::string path, std::vector<std::string> header, std::string what)
    : SharedCsvFile(std::move(path), FileSchema{std::move(what), std::move(header), {}, 0}) {}

// Called with the lock held: writes the header into an empty file; otherwise checks the header,
// then every record after it, and only then repairs an incomplete last line, so that a file
// refused is left byte for byte as it was.
void SharedCsvFile::check_file() {
  const off_t size = file_size(fd_);
  if (size == 0) {
    write_or_undo(header_line_);
    return;
  }
  // A first line longer than the header is another header, whatever follows in it.
  const auto [found, ended] = read_first_line(fd_, header_line_.size() + 4096);
  if (!ended && static_cast<off_t>(found.size()) == size &&
      header_line_.compare(0, found.size(), found) == 0) {
    // The header alone, cut short: a writer was killed while creating the file.
    move_aside(0, 1);
    write_or_undo(header_line_);
    return;
  }
  if (!ended || found + "\n" != header_line_) refuse_header(found);
  const std::size_t columns = schema_.header.size();
  const auto refuse_corrupt = [&](const CsvRecordShape& record) {
    const RecordVerdict verdict = judge_record(record, columns);
    if (verdict.kind != RecordVerdict::Kind::corrupt) return;
    throw InputError(what_ + " '" + path_ + "' is corrupt: " + verdict.fault +
                     "; left as it is (write to another file, or mend this one)");
  };
  // One pass a block at a time, whatever the file's size: a corrupt record would make the
  // readers (libfccp) refuse the file once rows were added after it.
  const auto last = scan_csv_file(fd_, what_, path_, static_cast<off_t>(header_line_.size()), 2,
                                  refuse_corrupt);
  if (!last) return;
  refuse_corrupt(*last);
  repair(*last);
}

void SharedCsvFile::refuse_header(const std::string& found) const {
  const HeaderVerdict verdict = judge_header(schema_, header_names(found));
  if (verdict.age == HeaderVerdict::Age::older) {
    const bool one = verdict.missing.size() == 1;
    throw InputError(what_ + " '" + path_ + "' was written by an older kbench (it lacks " +
                     (one ? "column " : "columns ") + name_list(verdict.missing) +
                     "); `kbench upgrade " + shell_word(path_) + "` adds " +
                     (one ? "it" : "them"));
  }
  throw InputError(what_ + " '" + path_ + "' has a different header (" + verdict.difference +
                   "); write to another file or move this one away");
}

// Opens the file, takes its lock and checks it; false (and closed) when the path named another
// file by the time the lock was held.
bool SharedCsvFile::open_and_check() {
  fd_ = ::open(path_.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
  // A full disk can refuse the file's creation already: that is exit 4, not bad input.
  if (fd_ < 0) throw_file_error("open", what_, path_, errno);
  try {
    struct stat info {};
    // Repair, undo and read-back need a regular file (not /dev/full, a pipe or a terminal).
    if (fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
      throw InputError(what_ + " '" + path_ + "' is not a regular file");
    }
    device_ = info.st_dev;
    inode_ = info.st_ino;
    bool same_file = false;
    {
      AppendLock lock(fd_, what_ + " '" + path_ + "'");
      struct stat now {};
      same_file = ::stat(path_.c_str(), &now) == 0 && now.st_dev == device_ &&
                  now.st_ino == inode_;
      if (same_file) check_file();
    }
    if (!same_file) {
      ::close(fd_);
      fd_ = -1;
      return false;
    }
  } catch (...) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    throw;
  }
  return true;
}

SharedCsvFile::~SharedCsvFile() {
  if (fd_ >= 0) ::close(fd_);
}

// Called with the lock held: a record the file ends inside, left by another writer since the
// file was opened (and checked), is repaired.
void SharedCsvFile::repair_incomplete_line() {
  const off_t size = file_size(fd_);
  char last_byte = '\n';
  if (size == 0 || (::pread(fd_, &last_byte, 1, size - 1) == 1 && last_byte == '\n')) return;
  const auto last = scan_csv_file(fd_, what_, path_, static_cast<off_t>(header_line_.size()), 2,
                                  [](const CsvRecordShape&) {});
  if (last) repair(*last);
}

// Called with the lock held, with the record the file ends inside: a whole row gets its line
// feed; anything else is what a killed writer left, moved to FILE.fragments.
void SharedCsvFile::repair(const CsvRecordShape& last) {
  if (judge_record(last, schema_.header.size()).kind == RecordVerdict::Kind::unfinished) {
    write_or_undo("\n");
    std::cerr << "kbench: " << what_ << " '" << path_ << "': line " << last.line
              << " lacked its final newline; added it\n";
    return;
  }
  move_aside(static_cast<off_t>(last.begin), last.line);
}

// Called with the lock held: moves the file's bytes from `begin` on, the incomplete record that
// starts on `line`, to FILE.fragments.
void SharedCsvFile::move_aside(off_t begin, std::size_t line) {
  const off_t size = file_size(fd_);
  std::string fragment(static_cast<std::size_t>(size - begin), '\0');
  for (off_t done = 0; done < size - begin;) {
    const ssize_t n = ::pread(fd_, &fragment[done], size - begin - done, begin + done);
    if (n <= 0) throw WriteError("cannot read " + what_ + " '" + path_ + "': " + std::strerror(errno));
    done += n;
  }
  const std::string aside = path_ + ".fragments";
  const int out = ::open(aside.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (out < 0 || !write_all(out, fragment + "\n")) {
    const std::string why = std::strerror(errno);
    if (out >= 0) ::close(out);
    throw WriteError(what_ + " '" + path_ + "' ends in an incomplete line " + std::to_string(line) +
                     ", which could not be moved to '" + aside + "': " + why);
  }
  ::close(out);
  if (::ftruncate(fd_, begin) != 0) {
    throw WriteError("cannot repair " + what_ + " '" + path_ + "': " + std::strerror(errno));
  }
  std::cerr << "kbench: " << what_ << " '" << path_ << "': line " << line << " was incomplete (a "
            << "writer was interrupted); moved its " << fragment.size() << " bytes to '" << aside
            << "'\n";
}

// Called with the lock held.
SharedCsvFile::Span SharedCsvFile::write_or_undo(const std::string& text) {
  const off_t before = file_size(fd_);
  if (write_all(fd_, text)) return {before, before + static_cast<off_t>(text.size())};
  const std::string why = std::strerror(errno);
  // Whatever part of the text reached the file goes: the file ends where it ended.
  const bool undone = ::ftruncate(fd_, before) == 0;
  throw WriteError("cannot write " + what_ + " '" + path_ + "': " + why +
                   (undone ? "" : "; the incomplete line left behind is repaired by the next append"));
}

// Called with the lock held. A file replaced under the run (an editor saving by rename, `sed -i`,
// `git checkout`) or removed is no longer the file the run appends to: rows written to the old one
// would vanish with it, so the run stops, and --resume runs what the new file lacks.
void SharedCsvFile::check_still_the_file() const {
  struct stat now {};
  if (::stat(path_.c_str(), &now) == 0 && now.st_dev == device_ && now.st_ino == inode_) return;
  throw WriteError(what_ + " '" + path_ + "' was replaced or removed while this run wrote to it "
                   "(an editor, sed -i, git checkout?); its rows since are not in the file there now");
}

SharedCsvFile::Span SharedCsvFile::append(const std::string& lines) {
  const std::lock_guard<std::mutex> threads(mutex_);
  AppendLock lock(fd_, what_ + " '" + path_ + "'");
  check_still_the_file();
  repair_incomplete_line();
  // Another runner may have created the file empty and not yet written its header.
  if (file_size(fd_) == 0) {
    Span span = write_or_undo(header_line_ + lines);
    span.begin = static_cast<long long>(header_line_.size());
    return span;
  }
  return write_or_undo(lines);
}

bool SharedCsvFile::undo(const Span& span) {
  if (span.end == span.begin) return true;
  const std::lock_guard<std::mutex> threads(mutex_);
  AppendLock lock(fd_, what_ + " '" + path_ + "'");
  return file_size(fd_) == span.end && ::ftruncate(fd_, span.begin) == 0;
}

}  // namespace kb
