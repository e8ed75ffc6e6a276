#include "store/file_upgrade.hpp"

#include "store/csv_records.hpp"
#include "store/file_lock.hpp"
#include "store/file_schema.hpp"
#include "util/csv.hpp"
#include "util/input_error.hpp"
#include "util/output_file.hpp"
#include "util/write_error.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>

namespace kb {
namespace {

// The file, open and locked for appending (file_lock.hpp) while this lives.
class LockedFile {
 public:
  explicit LockedFile(const std::string& path) : path_(path) {
    // The file a run appends to, whatever name it is given: upgrading a symbolic link's target
    // keeps the link.
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) == nullptr) {
      throw_file_error("open", "file", path, errno);
    }
    real_ = resolved;
    // An upgrade or an editor may replace the file while this waits for its lock: the one the
    // path names once the lock is held is the one upgraded.
    for (int attempt = 0; attempt < 100; ++attempt) {
      fd_ = ::open(real_.c_str(), O_RDWR | O_CLOEXEC | O_NOCTTY);
      if (fd_ < 0) throw_file_error("open", "file", path_, errno);
      if (::fstat(fd_, &info_) != 0 || !S_ISREG(info_.st_mode)) {
        close();
        throw InputError("'" + path_ + "' is not a regular file");
      }
      if (!lock_byte(fd_, kAppendLockByte, /*wait=*/true)) {
        const int error = errno;
        close();
        throw InputError("cannot lock '" + path_ + "': " + std::strerror(error));
      }
      if (still_the_file()) return;
      close();
    }
    throw InputError("'" + path_ + "' was replaced again and again while kbench opened it");
  }
  ~LockedFile() { close(); }
  LockedFile(const LockedFile&) = delete;
  LockedFile& operator=(const LockedFile&) = delete;

  bool still_the_file() const {
    struct stat now {};
    return ::stat(real_.c_str(), &now) == 0 && now.st_dev == info_.st_dev &&
           now.st_ino == info_.st_ino;
  }

  std::string content() const {
    std::string text(static_cast<std::size_t>(info_.st_size), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::pread(fd_, &text[done], text.size() - done, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw_file_error("read", "file", path_, errno);
      if (n == 0) break;  // shorter than it was: no appender writes while the lock is held
      done += static_cast<std::size_t>(n);
    }
    text.resize(done);
    // Nothing appends while the lock is held, but a writer of another kind could have.
    char more;
    if (::pread(fd_, &more, 1, static_cast<off_t>(done)) == 1) {
      throw InputError("'" + path_ + "' grew while kbench read it under the appenders' lock (a "
                       "writer that takes no lock?); left as it is");
    }
    return text;
  }

  int fd() const { return fd_; }
  const struct stat& info() const { return info_; }
  const std::string& real() const { return real_; }

 private:
  void close() {
    if (fd_ >= 0) ::close(fd_);  // the lock goes with the descriptor
    fd_ = -1;
  }
  std::string path_, real_;
  int fd_ = -1;
  struct stat info_ {};
};

// The schema `found` belongs to, now or in an older kbench, or an InputError naming the first
// difference from the header it is closest to.
const FileSchema& schema_of(const std::string& path, const std::vector<std::string>& found,
                            HeaderVerdict& verdict) {
  const FileSchema* closest = nullptr;
  HeaderVerdict closest_verdict;
  for (const FileSchema* schema : {&results_schema(), &samples_schema()}) {
    HeaderVerdict v = judge_header(*schema, found);
    if (v.age != HeaderVerdict::Age::other) {
      verdict = std::move(v);
      return *schema;
    }
    if (closest == nullptr || v.difference_at > closest_verdict.difference_at) {
      closest = schema;
      closest_verdict = std::move(v);
    }
  }
  throw InputError("'" + path + "' is no results or samples file of an older kbench (against a " +
                   closest->what + "'s header: " + closest_verdict.difference +
                   "); left as it is");
}

void sync_folder(const std::string& folder, const std::string& what, const std::string& path) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const bool synced = fd >= 0 && ::fsync(fd) == 0;
  const int error = errno;
  if (fd >= 0) ::close(fd);
  // Some filesystems cannot sync a folder (EINVAL): the rename stands as well as they keep it.
  if (!synced && error != EINVAL) {
    throw WriteError("upgraded " + what + " '" + path + "', but its folder '" + folder +
                     "' could not be synced (" + std::strerror(error) +
                     "): a power cut could still bring back the old file");
  }
}

}  // namespace

UpgradeOutcome upgrade_file(const std::string& path) {
  LockedFile file(path);
  const std::string text = file.content();
  UpgradeOutcome outcome;
  if (text.empty()) return outcome;  // a run writes its header
  const auto header_end = text.find('\n');
  if (header_end == std::string::npos) {
    throw InputError("'" + path + "' ends inside its first line (a header cut short); left as it "
                     "is (a run moves it to '" + path + ".fragments' and writes its header)");
  }
  const std::vector<std::string> found = header_names(text.substr(0, header_end));
  HeaderVerdict verdict;
  const FileSchema& schema = schema_of(path, found, verdict);
  outcome.what = schema.what;
  if (verdict.age == HeaderVerdict::Age::current) return outcome;

  const std::string& what = schema.what;
  if (file.info().st_nlink > 1) {
    throw InputError(what + " '" + path + "' has " + std::to_string(file.info().st_nlink) +
                     " hard links: the upgraded copy would replace this name alone; left as it is");
  }
  // A run with a --run-id holds its run lock while it appends (an older kbench's: this one's
  // refuses the file). Replaced under it, its next row would stop it.
  if (range_locked(file.fd(), kRunLockBase, kRunLockSpan)) {
    throw InputError(what + " '" + path + "' is being written by a run (it holds a run lock on "
                     "the file); upgrade it when the run has ended. Left as it is");
  }

  // Where each of today's columns is in the file's rows, or none.
  std::vector<std::optional<std::size_t>> source;
  for (const auto& name : schema.header) {
    const auto at = std::find(found.begin(), found.end(), name);
    source.push_back(at == found.end() ? std::nullopt
                                       : std::optional<std::size_t>(at - found.begin()));
  }
  outcome.added = verdict.missing;

  std::string upgraded = csv_line(schema.header);
  upgraded.reserve(text.size() + text.size() / 4);
  std::string fragment;
  std::size_t fragment_line = 0;
  bool newline_added = false;
  const auto records = csv_records(text, header_end + 1, 2);
  for (const CsvRecord& record : records) {
    const RecordVerdict verdict = judge_record(record, found.size());
    if (verdict.kind == RecordVerdict::Kind::corrupt) {
      throw InputError(what + " '" + path + "': " + verdict.fault + "; left as it is");
    }
    if (verdict.kind == RecordVerdict::Kind::torn) {
      // What a killed writer left, moved aside as a run's repair moves it.
      fragment = text.substr(record.begin);
      fragment_line = record.line;
      break;
    }
    // A whole last row lacking only its line feed is kept (a run adds the line feed).
    if (verdict.kind == RecordVerdict::Kind::unfinished) newline_added = true;
    if (record.begin == record.end) {  // an empty line: no row, kept as it is
      upgraded += '\n';
      continue;
    }
    for (std::size_t column = 0; column < source.size(); ++column) {
      if (column > 0) upgraded += ',';
      if (source[column]) {
        const auto [begin, end] = record.fields[*source[column]];
        upgraded.append(text, begin, end - begin);
      }
    }
    upgraded += '\n';
    ++outcome.rows;
  }

  // The upgraded copy, beside the file (the same filesystem: the rename is atomic), complete and
  // synced before it takes the file's name.
  const std::string real = file.real();
  const auto slash = real.rfind('/');
  const std::string folder = slash == 0 ? "/" : real.substr(0, slash);
  std::string temporary = folder + "/." + real.substr(slash + 1) + ".upgrade-XXXXXX";
  const int out = ::mkostemp(&temporary[0], O_CLOEXEC);
  if (out < 0) throw_file_error("create", "the upgraded copy of " + what, temporary, errno);
  {
    const std::string doing = "cannot write the upgraded copy of " + what + " '" + path +
                              "' ('" + temporary + "')";
    int error = 0;
    if (::fchmod(out, file.info().st_mode & 07777) != 0) error = errno;
    // The owner kept where the system allows it (as root); otherwise the file becomes ours.
    [[maybe_unused]] const int owner = ::fchown(out, file.info().st_uid, file.info().st_gid);
    if (error == 0 && !write_all(out, upgraded)) error = errno;
    // A network filesystem may report a full disk only at the sync or the close.
    if (error == 0 && ::fsync(out) != 0) error = errno;
    if (::close(out) != 0 && error == 0) error = errno;
    if (error != 0) {
      ::unlink(temporary.c_str());
      throw WriteError(doing + ": " + std::strerror(error) + "; the file is as it was");
    }
  }
  const auto give_up = [&](auto&& error) {
    ::unlink(temporary.c_str());
    throw error;
  };

  if (!fragment.empty()) {
    const std::string aside = path + ".fragments";
    const int fd = ::open(aside.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    const bool moved = fd >= 0 && write_all(fd, fragment + "\n") && ::fsync(fd) == 0;
    const int error = errno;
    if (fd >= 0) ::close(fd);
    if (!moved) {
      give_up(WriteError(what + " '" + path + "' ends in an incomplete line " +
                         std::to_string(fragment_line) + ", which could not be moved to '" +
                         aside + "': " + std::strerror(error) + "; the file is as it was"));
    }
  }
  if (!file.still_the_file()) {
    give_up(InputError(what + " '" + path + "' was replaced while kbench upgraded it (an editor, "
                       "another tool?); left as it is: upgrade it again"));
  }
  if (::rename(temporary.c_str(), real.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw_file_error("replace", what, path, error);
  }
  if (!fragment.empty()) {
    std::cerr << "kbench: " << what << " '" << path << "': line " << fragment_line
              << " was incomplete (a writer was interrupted); moved its " << fragment.size()
              << " bytes to '" << path << ".fragments'\n";
  } else if (newline_added) {
    std::cerr << "kbench: " << what << " '" << path << "': line " << records.back().line
              << " lacked its final newline; added it\n";
  }
  sync_folder(folder, what, path);
  outcome.upgraded = true;
  return outcome;
}

}  // namespace kb
