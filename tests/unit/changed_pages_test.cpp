// How a host operand crosses between the referee and the worker: page by page on the host's
// threads, the pages that differ copied and the pages that agree left untouched (each process
// keeps in its caches what the other did not change).
#include "referee/shared_operands.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace kb {
namespace {

// Whole pages of anonymous memory, so some can be made read-only.
class Pages {
 public:
  explicit Pages(std::size_t bytes)
      : bytes_((bytes + kGuardBytes - 1) / kGuardBytes * kGuardBytes) {
    void* mapped =
        ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::runtime_error("mmap");
    data_ = static_cast<unsigned char*>(mapped);
  }
  ~Pages() { ::munmap(data_, bytes_); }
  Pages(const Pages&) = delete;
  Pages& operator=(const Pages&) = delete;
  unsigned char* data() const { return data_; }
  void read_only(std::size_t page) const {
    ASSERT_EQ(::mprotect(data_ + page * kGuardBytes, kGuardBytes, PROT_READ), 0);
  }

 private:
  std::size_t bytes_;
  unsigned char* data_;
};

class HostThreads {
 public:
  explicit HostThreads(const char* threads) {
    if (const char* was = std::getenv("KBENCH_HOST_THREADS")) was_ = was;
    ::setenv("KBENCH_HOST_THREADS", threads, 1);
  }
  ~HostThreads() {
    if (was_.empty()) {
      ::unsetenv("KBENCH_HOST_THREADS");
    } else {
      ::setenv("KBENCH_HOST_THREADS", was_.c_str(), 1);
    }
  }

 private:
  std::string was_;
};

// Ten megabytes and a part of a page: many chunks of the threads, and a last page cut short.
constexpr std::size_t kBytes = (std::size_t{10} << 20) + 123;

void fill(unsigned char* data, std::size_t bytes, unsigned seed) {
  for (std::size_t i = 0; i < bytes; ++i) {
    data[i] = static_cast<unsigned char>((i * 131 + seed) >> 3);
  }
}

TEST(ChangedPages, TheTargetEndsAsTheSourceOnOneThreadOrMany) {
  for (const char* threads : {"1", "4"}) {
    const HostThreads set(threads);
    Pages source(kBytes), target(kBytes);
    fill(source.data(), kBytes, 1);
    fill(target.data(), kBytes, 1);
    // A few pages changed, the last (short) one among them, and one byte in the middle of another.
    for (const std::size_t page : {0ul, 7ul, 1000ul, kBytes / kGuardBytes}) {
      const std::size_t at = page * kGuardBytes;
      std::memset(target.data() + at, 0xEE, std::min<std::size_t>(kGuardBytes, kBytes - at));
    }
    target.data()[2049 * kGuardBytes + 17] ^= 1;
    copy_changed_pages(target.data(), source.data(), kBytes);
    EXPECT_EQ(std::memcmp(target.data(), source.data(), kBytes), 0) << threads << " threads";
  }
}

TEST(ChangedPages, PagesThatAgreeAreNeverWritten) {
  const HostThreads set("4");
  Pages source(kBytes), target(kBytes);
  fill(source.data(), kBytes, 2);
  fill(target.data(), kBytes, 2);
  const std::size_t changed = 1234;
  target.data()[changed * kGuardBytes + 5] ^= 0xFF;
  // Every page but the changed one read-only: a write to any of them ends the test with SIGSEGV.
  for (std::size_t page = 0; page < kBytes / kGuardBytes; ++page) {
    if (page != changed) target.read_only(page);
  }
  copy_changed_pages(target.data(), source.data(), kBytes);
  EXPECT_EQ(std::memcmp(target.data(), source.data(), kBytes), 0);
}

}  // namespace
}  // namespace kb
