#include "store/record_reader.hpp"

#include "store/result_columns.hpp"
#include "store/shared_csv_file.hpp"
#include "util/input_error.hpp"
#include "util/progress_line.hpp"
#include "util/terminal_text.hpp"

#include <csv.h>  // libfccp
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>

namespace kb {
namespace {

using Reader =
    io::CSVReader<kResultColumnCount, io::trim_chars<>, io::double_quote_escape<',', '"'>>;

// A part of the file as libfccp reads it: `prefix` (the header line, for a part after the first),
// the bytes [begin, end), then `suffix` (the line feed a whole last row lacked).
class FilePart : public io::ByteSourceBase {
 public:
  FilePart(int fd, std::string prefix, off_t begin, off_t end, std::string suffix)
      : fd_(fd), prefix_(std::move(prefix)), suffix_(std::move(suffix)), at_(begin), end_(end) {}

  int read(char* buffer, int size) override {
    int given = 0;
    const auto give = [&](std::string& text) {
      const std::size_t n = std::min(text.size(), static_cast<std::size_t>(size - given));
      std::memcpy(buffer + given, text.data(), n);
      text.erase(0, n);
      given += static_cast<int>(n);
    };
    give(prefix_);
    while (given < size && at_ < end_) {
      const std::size_t want = std::min(static_cast<off_t>(size - given), end_ - at_);
      const ssize_t n = ::pread(fd_, buffer + given, want, at_);
      if (n < 0) throw std::runtime_error(std::string("cannot read: ") + std::strerror(errno));
      if (n == 0) break;  // the file shrank under the reader
      at_ += n;
      given += static_cast<int>(n);
    }
    if (at_ >= end_) give(suffix_);
    return given;
  }

 private:
  int fd_;
  std::string prefix_, suffix_;
  off_t at_, end_;
};

struct OpenFile {
  explicit OpenFile(const std::string& path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~OpenFile() {
    if (fd >= 0) ::close(fd);
  }
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  int fd;
};

// Where the reading ends, as complete_lines (store/shared_csv_file.hpp) decides for the whole
// content: after the last line feed, or at the file's end plus a line feed where the last line
// is a whole row without one; the fragment left out, if any.
struct Extent {
  off_t end = 0;
  std::string suffix, fragment;
  off_t header_end = 0;  // after the first line's line feed
  std::string header;    // the first line, with its line feed
};

// The bytes [from, to) of the file.
std::string bytes_of(int fd, off_t from, off_t to) {
  std::string text(static_cast<std::size_t>(to - from), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::pread(fd, &text[got], text.size() - got, from + static_cast<off_t>(got));
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  return text;
}

// The first line feed at or after `from`, or `size` when none.
off_t line_feed_from(int fd, off_t from, off_t size) {
  char buffer[1 << 16];
  while (from < size) {
    const ssize_t n = ::pread(fd, buffer, std::min<off_t>(sizeof buffer, size - from), from);
    if (n <= 0) return size;
    if (const void* at = std::memchr(buffer, '\n', static_cast<std::size_t>(n))) {
      return from + (static_cast<const char*>(at) - buffer);
    }
    from += n;
  }
  return size;
}

// The last line feed before `size`, or -1.
off_t last_line_feed(int fd, off_t size) {
  char buffer[1 << 16];
  for (off_t end = size; end > 0;) {
    const off_t from = std::max<off_t>(0, end - static_cast<off_t>(sizeof buffer));
    const ssize_t n = ::pread(fd, buffer, static_cast<std::size_t>(end - from), from);
    if (n <= 0) return -1;
    if (const void* at = memrchr(buffer, '\n', static_cast<std::size_t>(n))) {
      return from + (static_cast<const char*>(at) - buffer);
    }
    end = from;
  }
  return -1;
}

Extent extent_of(int fd, off_t size) {
  Extent e;
  const off_t last = last_line_feed(fd, size);
  if (last < 0) {
    e.fragment = bytes_of(fd, 0, size);
    return e;
  }
  e.header_end = line_feed_from(fd, 0, size) + 1;
  e.header = bytes_of(fd, 0, e.header_end);
  const std::string rest = bytes_of(fd, last + 1, size);
  // The same decision as for the whole content: it rests on the first line and the rest alone.
  std::string fragment;
  const std::string judged = complete_lines(e.header + rest, &fragment);
  e.fragment = fragment;
  if (rest.empty() || !fragment.empty()) {
    e.end = last + 1;
  } else {
    e.end = size;
    e.suffix = judged.substr(e.header.size() + rest.size());
  }
  return e;
}

// The text of each column as the last row had it: most rows of a file repeat the row before in
// most columns (its run, GPU, host, plugin), and a repeat is a comparison, not a look-up.
class RecentTexts {
 public:
  Text operator()(std::size_t column, const char* cell) {
    auto& [text, kept] = recent_[column];
    if (std::strcmp(text.c_str(), cell) != 0) {
      text = cell;
      kept = Text(text);
    }
    return kept;
  }

 private:
  std::array<std::pair<std::string, Text>, kResultColumnCount> recent_;
};

// kbench's own escaping of line breaks in a cell, undone where it stands (the text only shrinks).
void unescape_in_place(char* cell) {
  if (*cell == '\0') return;
  char* out = std::strchr(cell, '\\');
  if (out == nullptr) return;
  for (const char* in = out; *in != '\0'; ++in) {
    if (*in == '\\' && in[1] != '\0') {
      ++in;
      *out++ = *in == 'n' ? '\n' : *in == 'r' ? '\r' : *in;
    } else {
      *out++ = *in;
    }
  }
  *out = '\0';
}

// What one part gave: its records, or the error that stopped it (with the line libfccp counted
// from the part's start).
struct PartResult {
  std::vector<ResultRecord> records;
  FilterTally tally;
  std::exception_ptr error;
  bool done = false;
};

class PartReader {
 public:
  PartReader(const std::string& path, const RowFilter& filter) : path_(path), filter_(filter) {}

  void read(std::unique_ptr<io::ByteSourceBase> bytes, bool first, PartResult& result) {
    result.tally.families.assign(filter_.families.size(), false);
    result.tally.plugin_globs.assign(filter_.plugin_globs.size(), false);
    Reader reader(path_, std::move(bytes));
    // Files written by an older kbench lack the newer columns: those read as empty cells. A newer
    // kbench's extra columns are left out.
    std::apply(
        [&](auto... names) {
          reader.read_header(io::ignore_missing_column | io::ignore_extra_column, names...);
        },
        kResultHeader);
    if (first) {
      for (const char* required : kRequiredColumns) {
        if (!reader.has_column(required)) {
          throw InputError("'" + path_ + "' is not a kbench results file (no '" + required +
                           "' column)");
        }
      }
    }
    std::array<char*, kResultColumnCount> cells;
    static char empty[] = "";
    RecentTexts texts;
    while (true) {
      cells.fill(empty);
      if (!std::apply([&](auto&... cell) { return reader.read_row(cell...); }, cells)) break;
      // One look over the row for a backslash: libfccp's cells lie in one line, each ended by a
      // NUL; a row without one (nearly all) needs no unescaping.
      const char* low = nullptr;
      const char* high = nullptr;
      for (const char* cell : cells) {
        if (cell == empty) continue;
        if (low == nullptr || cell < low) low = cell;
        if (high == nullptr || cell > high) high = cell;
      }
      if (low != nullptr &&
          std::memchr(low, '\\', static_cast<std::size_t>(high - low) + std::strlen(high))) {
        for (char* cell : cells) unescape_in_place(cell);
      }
      if (!kept(cells, result.tally)) continue;
      result.records.push_back(record_of_cells(
          [&](std::size_t column) { return cells[column]; },
          [&](std::size_t column) { return texts(column, cells[column]); }));
    }
  }

 private:
  bool kept(const std::array<char*, kResultColumnCount>& cells, FilterTally& tally) {
    const char* run = cells[column_of("run_id")];
    ++tally.rows;
    if (last_run_ != run) {
      last_run_ = run;
      tally.runs.insert(last_run_);
    }
    const char* family = cells[column_of("family")];
    const char* plugin = cells[column_of("plugin")];
    bool family_kept = filter_.families.empty(), plugin_kept = filter_.plugin_globs.empty();
    for (std::size_t i = 0; i < filter_.families.size(); ++i) {
      if (filter_.families[i] == family) family_kept = tally.families[i] = true;
    }
    for (std::size_t i = 0; i < filter_.plugin_globs.size(); ++i) {
      if (fnmatch(filter_.plugin_globs[i].c_str(), plugin, 0) == 0) {
        plugin_kept = tally.plugin_globs[i] = true;
      }
    }
    if (!family_kept || !plugin_kept) return false;
    ++tally.selected;
    if (filter_.runs.empty()) return true;
    return std::any_of(filter_.runs.begin(), filter_.runs.end(),
                       [&](const std::string& r) { return r == run; });
  }

  const std::string& path_;
  const RowFilter& filter_;
  std::string last_run_;
};

// On a terminal, how far a read that takes a while is.
class ReadProgress {
 public:
  ReadProgress(const std::string& path, off_t bytes) : path_(path), bytes_(bytes) {}

  void read_to(off_t at, std::size_t kept) {
    line_.update([&] {
      return "kbench: reading " + terminal_text(path_, false) + ": " +
             std::to_string(100 * at / std::max<off_t>(bytes_, 1)) + "% (" +
             std::to_string(at / (1 << 20)) + " of " + std::to_string(bytes_ / (1 << 20)) +
             " MB, " + std::to_string(kept) + " rows kept)";
    });
  }

 private:
  std::string path_;
  off_t bytes_;
  ProgressLine line_;
};

// A part is this many bytes of the file or more, and parts are read by as many threads as the
// machine has, in order: what waits to be joined stays small beside the records.
constexpr off_t kPartBytes = off_t{64} << 20;
constexpr unsigned kMostThreads = 8;

// The line of the file `line` of a part is, when the part starts at byte `begin` (its first line
// is the header it was given).
unsigned file_line(int fd, off_t begin, unsigned line) {
  unsigned before = 0;
  char buffer[1 << 16];
  for (off_t at = 0; at < begin;) {
    const ssize_t n = ::pread(fd, buffer, std::min<off_t>(sizeof buffer, begin - at), at);
    if (n <= 0) break;
    before += static_cast<unsigned>(std::count(buffer, buffer + n, '\n'));
    at += n;
  }
  return before + line - 1;
}

[[noreturn]] void throw_corrupt(const std::string& path, io::error::base& e, int fd,
                                off_t begin, bool first) {
  if (!first) {
    if (auto* lined = dynamic_cast<io::error::with_file_line*>(&e)) {
      lined->set_file_line(static_cast<int>(file_line(fd, begin, lined->file_line)));
    }
  }
  throw InputError("corrupt results file '" + path + "': " + e.what());
}

void add(FilterTally& into, const FilterTally& more) {
  into.rows += more.rows;
  into.selected += more.selected;
  into.runs.insert(more.runs.begin(), more.runs.end());
  into.families.resize(more.families.size());
  into.plugin_globs.resize(more.plugin_globs.size());
  for (std::size_t i = 0; i < more.families.size(); ++i) {
    if (more.families[i]) into.families[i] = true;
  }
  for (std::size_t i = 0; i < more.plugin_globs.size(); ++i) {
    if (more.plugin_globs[i]) into.plugin_globs[i] = true;
  }
}

}  // namespace

std::vector<ResultRecord> read_records(const std::string& path, const RowFilter& filter,
                                       FilterTally* tally) {
  // A folder failed deep in the stream, /dev/zero filled memory and a FIFO blocked forever.
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    throw InputError("results file '" + path + "' is not a regular file");
  }
  const OpenFile file(path);
  if (file.fd < 0 || ::fstat(file.fd, &info) != 0) {
    throw InputError("cannot read results file '" + path + "'");
  }
  const Extent extent = extent_of(file.fd, info.st_size);
  if (!extent.fragment.empty()) {
    std::cerr << "kbench: results file '" << path << "': left out its incomplete last line (a "
              << "writer was interrupted; the next run appending to the file moves it aside)\n";
  }
  // The parts: the first holds the header; each later one starts after a line feed.
  std::vector<off_t> starts{0};
  for (off_t at = extent.header_end + kPartBytes; at < extent.end; at += kPartBytes) {
    const off_t start = line_feed_from(file.fd, at, extent.end) + 1;
    if (start >= extent.end) break;
    if (start > starts.back()) starts.push_back(start);
  }
  const std::size_t parts = starts.size();
  starts.push_back(extent.end);
  std::vector<PartResult> results(parts);
  const auto read_part = [&](std::size_t k) {
    try {
      const bool first = k == 0;
      const std::string suffix = k + 1 == parts ? extent.suffix : "";
      PartReader(path, filter)
          .read(std::make_unique<FilePart>(file.fd, first ? "" : extent.header, starts[k],
                                           starts[k + 1], suffix),
                first, results[k]);
    } catch (...) {
      results[k].error = std::current_exception();
    }
  };
  const unsigned threads = static_cast<unsigned>(
      std::min<std::size_t>({parts, std::max(1u, std::thread::hardware_concurrency()),
                             kMostThreads}));
  // A part is taken no further ahead of the one being joined than the threads can read at once.
  const std::size_t ahead = 2 * threads;
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t next = 0, joining = 0;
  // Reads the next part when there is one within reach; false when none is left.
  const auto read_one = [&](bool wait_for_reach) {
    std::size_t k = 0;
    {
      std::unique_lock<std::mutex> lock(mutex);
      if (wait_for_reach) {
        changed.wait(lock, [&] { return next == parts || next < joining + ahead; });
      } else if (next < parts && next >= joining + ahead) {
        return true;
      }
      if (next == parts) return false;
      k = next++;
    }
    read_part(k);
    {
      const std::lock_guard<std::mutex> lock(mutex);
      results[k].done = true;
    }
    changed.notify_all();
    return true;
  };
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i) {
    pool.emplace_back([&] {
      while (read_one(true)) {
      }
    });
  }
  // This thread reads too, and joins each part's records in order as it is done, then lets go of
  // the part's own.
  std::vector<ResultRecord> records;
  FilterTally met;
  met.families.assign(filter.families.size(), false);
  met.plugin_globs.assign(filter.plugin_globs.size(), false);
  std::exception_ptr error;
  std::size_t failed_part = 0;
  ReadProgress progress(path, extent.end);
  for (std::size_t k = 0; k < parts; ++k) {
    while (true) {
      {
        const std::lock_guard<std::mutex> lock(mutex);
        if (results[k].done) break;
      }
      if (!read_one(false)) {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return results[k].done; });
        break;
      }
    }
    PartResult& part = results[k];
    if (!error && part.error) {
      error = part.error;
      failed_part = k;
    }
    if (!error) {
      if (k == 0 && parts > 1) {
        // As many rows again in every part as the first kept: the room taken at once (room not
        // yet written is no memory the process holds), not doubled on the way.
        const double share = static_cast<double>(starts[1] - starts[0]) /
                             static_cast<double>(extent.end);
        records.reserve(static_cast<std::size_t>(1.2 * static_cast<double>(part.records.size()) /
                                                 share));
      }
      records.insert(records.end(), std::make_move_iterator(part.records.begin()),
                     std::make_move_iterator(part.records.end()));
      add(met, part.tally);
    }
    std::vector<ResultRecord>().swap(part.records);
    progress.read_to(starts[k + 1], records.size());
    {
      const std::lock_guard<std::mutex> lock(mutex);
      joining = k + 1;
    }
    changed.notify_all();
  }
  for (auto& thread : pool) thread.join();
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (io::error::base& e) {
      throw_corrupt(path, e, file.fd, starts[failed_part], failed_part == 0);
    } catch (const InputError&) {
      throw;
    } catch (const std::runtime_error& e) {
      throw InputError("cannot read results file '" + path + "': " + e.what());
    }
  }
  if (tally != nullptr) add(*tally, met);
  return records;
}

}  // namespace kb
