#include "util/output_file.hpp"

#include "util/input_error.hpp"
#include "util/write_error.hpp"

#include <boost/filesystem/operations.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <mutex>

namespace kb {
namespace {

ssize_t limited_write(int fd, const char* data, std::size_t size) {
  static std::mutex mutex;
  static long long budget = [] {
    const char* limit = std::getenv("KBENCH_TEST_WRITE_LIMIT");
    return limit ? std::atoll(limit) : -1;
  }();
  const std::lock_guard<std::mutex> lock(mutex);
  if (budget < 0) return ::write(fd, data, size);
  if (budget == 0) {
    errno = ENOSPC;
    return -1;
  }
  const ssize_t n = ::write(fd, data, std::min<std::size_t>(size, static_cast<std::size_t>(budget)));
  if (n > 0) budget -= n;
  return n;
}

}  // namespace

bool write_all(int fd, std::string_view text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = limited_write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void write_output_file(const std::string& path, std::string_view text, const std::string& what) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0644);
  if (fd < 0) throw_file_error("create", what, path, errno);
  // A network filesystem may report a full disk only when the file is closed.
  const bool written = write_all(fd, text);
  const int error = errno;
  if (!written) ::close(fd);
  if (!written || ::close(fd) != 0) {
    throw WriteError("cannot write " + what + " '" + path + "': " +
                     std::strerror(written ? errno : error));
  }
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat first {}, second {};
  return ::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0 &&
         first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

void refuse_output_onto_input(const std::string& option, const std::string& output,
                              const std::string& input, const std::string& input_named) {
  if (same_file(output, input)) throw InputError(option + " '" + output + "' is " + input_named);
}

void create_output_folder(const std::string& dir, const std::string& what) {
  boost::system::error_code error;
  boost::filesystem::create_directories(dir, error);
  if (error) {
    throw InputError("cannot create " + what + " folder '" + dir + "': " + error.message());
  }
}

}  // namespace kb
