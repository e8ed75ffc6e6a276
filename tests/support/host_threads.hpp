// Tests of the host loops: KBENCH_HOST_THREADS set for one scope, as the runner sets it for a
// worker, and restored after.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace kbtest {

class ScopedHostThreads {
 public:
  // nullptr: unset.
  explicit ScopedHostThreads(const char* value) {
    if (const char* old = std::getenv(kName)) old_ = old;
    set(value);
  }
  explicit ScopedHostThreads(unsigned threads)
      : ScopedHostThreads(std::to_string(threads).c_str()) {}
  ~ScopedHostThreads() { set(old_ ? old_->c_str() : nullptr); }
  ScopedHostThreads(const ScopedHostThreads&) = delete;
  ScopedHostThreads& operator=(const ScopedHostThreads&) = delete;

 private:
  static constexpr const char* kName = "KBENCH_HOST_THREADS";

  static void set(const char* value) {
    if (value != nullptr) {
      setenv(kName, value, /*overwrite=*/1);
    } else {
      unsetenv(kName);
    }
  }

  std::optional<std::string> old_;
};

}  // namespace kbtest
