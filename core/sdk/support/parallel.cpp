#include <kbench/support/parallel.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <system_error>
#include <thread>

namespace kb {

unsigned host_threads() {
  if (const char* text = std::getenv("KBENCH_HOST_THREADS")) {
    // strtoul would take " 4" and wrap "-4" around; only digits count.
    if (std::isdigit(static_cast<unsigned char>(text[0]))) {
      char* end = nullptr;
      errno = 0;
      const unsigned long threads = std::strtoul(text, &end, 10);
      if (*end == '\0' && errno == 0 && threads > 0 &&
          threads <= std::numeric_limits<unsigned>::max()) {
        return static_cast<unsigned>(threads);
      }
    }
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

void parallel_copy(void* to, const void* from, std::size_t bytes) {
  constexpr std::size_t kGrain = std::size_t{1} << 20;
  auto* target = static_cast<unsigned char*>(to);
  const auto* source = static_cast<const unsigned char*>(from);
  parallel_for(bytes, kGrain, [=](std::size_t begin, std::size_t end) {
    std::memcpy(target + begin, source + begin, end - begin);
  });
}

namespace detail {

void run_chunks(std::size_t count, std::size_t grain, ChunkCall call, const void* fn) {
  const std::size_t chunks = chunk_count(count, grain);
  const auto run = [&](std::size_t chunk) {
    const std::size_t begin = chunk * grain;
    call(fn, begin, std::min(begin + grain, count));
  };
  const std::size_t threads = std::min<std::size_t>(host_threads(), chunks);
  if (threads <= 1) {
    for (std::size_t chunk = 0; chunk < chunks; ++chunk) run(chunk);
    return;
  }

  // Chunks are handed out one at a time, so a thread the system slows down holds up one chunk,
  // not a fixed share of the range.
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  const auto work = [&] {
    try {
      while (!failed.load(std::memory_order_relaxed)) {
        const std::size_t chunk = next.fetch_add(1, std::memory_order_relaxed);
        if (chunk >= chunks) break;
        run(chunk);
      }
    } catch (...) {
      const std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      failed.store(true, std::memory_order_relaxed);
    }
  };

  std::vector<std::thread> helpers;
  helpers.reserve(threads - 1);
  for (std::size_t t = 1; t < threads; ++t) {
    try {
      helpers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the ones running share the chunks
    }
  }
  work();
  for (std::thread& helper : helpers) helper.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace detail
}  // namespace kb
