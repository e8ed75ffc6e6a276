#include "results_store.hpp"

#include "csv.hpp"
#include "input_error.hpp"

#include <csv.h>  // libfccp

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/filesystem/operations.hpp>

#include <array>
#include <cerrno>
#include <cstring>
#include <tuple>

namespace kb {
namespace {

// Holds an exclusive flock for its lifetime.
class FileLock {
 public:
  explicit FileLock(int fd) : fd_(fd) {
    while (flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~FileLock() { flock(fd_, LOCK_UN); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

void write_all(int fd, const std::string& text, const std::string& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError("cannot write results file '" + path + "': " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

std::string read_first_line(int fd) {
  std::string line;
  char buffer[4096];
  off_t offset = 0;
  while (true) {
    const ssize_t n = ::pread(fd, buffer, sizeof buffer, offset);
    if (n <= 0) return line;
    for (ssize_t i = 0; i < n; ++i) {
      if (buffer[i] == '\n') return line;
      line += buffer[i];
    }
    offset += n;
  }
}

std::string first_difference(const std::string& found) {
  const auto columns = [](const std::string& line) {
    std::vector<std::string> cells;
    std::size_t start = 0;
    while (start <= line.size()) {
      const auto end = std::min(line.find(',', start), line.size());
      cells.push_back(line.substr(start, end - start));
      start = end + 1;
    }
    return cells;
  };
  const auto got = columns(found);
  for (std::size_t i = 0; i < kResultColumnCount; ++i) {
    if (i >= got.size()) return "it ends after " + std::to_string(i) + " columns";
    if (got[i] != kResultColumns[i]) {
      return "column " + std::to_string(i + 1) + " is '" + got[i] + "', expected '" +
             kResultColumns[i] + "'";
    }
  }
  return "it has " + std::to_string(got.size()) + " columns, expected " +
         std::to_string(kResultColumnCount);
}

}  // namespace

std::string header_line() {
  return csv_line(std::vector<std::string>(kResultColumns.begin(), kResultColumns.end()));
}

ResultsStore::ResultsStore(std::string path) : path_(std::move(path)) {
  const auto parent = boost::filesystem::path(path_).parent_path();
  boost::system::error_code ignored;
  if (!parent.empty()) boost::filesystem::create_directories(parent, ignored);
  fd_ = ::open(path_.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw InputError("cannot open results file '" + path_ + "': " + std::strerror(errno));
  }
  try {
    write_header_or_check();
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

ResultsStore::~ResultsStore() {
  if (fd_ >= 0) ::close(fd_);
}

void ResultsStore::write_header_or_check() {
  FileLock lock(fd_);
  struct stat info {};
  fstat(fd_, &info);
  const std::string header = header_line();
  if (info.st_size == 0) {
    write_all(fd_, header, path_);
    return;
  }
  const std::string found = read_first_line(fd_);
  if (found + "\n" != header) {
    throw InputError("results file '" + path_ + "' has a different header (" +
                     first_difference(found) +
                     "); write to another --output or move the old file away");
  }
}

void ResultsStore::append(const ResultRow& row) {
  const std::string line = csv_line(row.cells());
  const std::lock_guard<std::mutex> threads(mutex_);
  FileLock lock(fd_);
  // Another runner may have created the file empty and not yet written its header.
  struct stat info {};
  fstat(fd_, &info);
  write_all(fd_, info.st_size == 0 ? header_line() + line : line, path_);
}

std::vector<ResultRow> read_results(const std::string& path) {
  std::vector<ResultRow> rows;
  try {
    io::CSVReader<kResultColumnCount, io::trim_chars<>, io::double_quote_escape<',', '"'>> reader(
        path);
    // Files written by an older kbench lack the newer columns: those read as empty cells.
    std::apply([&](auto... names) { reader.read_header(io::ignore_missing_column, names...); },
               kResultColumns);
    for (const char* required : {"run_id", "plugin", "status", "median_us"}) {
      if (!reader.has_column(required)) {
        throw InputError("'" + path + "' is not a kbench results file (no '" + required +
                         "' column)");
      }
    }
    std::array<std::string, kResultColumnCount> cells;
    while (true) {
      for (auto& cell : cells) cell.clear();
      if (!std::apply([&](auto&... cell) { return reader.read_row(cell...); }, cells)) break;
      std::vector<std::string> values;
      values.reserve(kResultColumnCount);
      for (const auto& cell : cells) values.push_back(csv_unescape(cell));
      rows.emplace_back(std::move(values));
    }
  } catch (const io::error::base& e) {
    throw InputError("corrupt results file '" + path + "': " + e.what());
  }
  return rows;
}

}  // namespace kb
