// The host loops of the plugin support library: every index covered once, in chunks that do not
// depend on the thread count, small ranges on the calling thread, exceptions to the caller, and
// KBENCH_HOST_THREADS read as the runner sets it.
#include "support/host_threads.hpp"

#include <kbench/support/parallel.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace kb {
namespace {

using kbtest::ScopedHostThreads;

constexpr std::size_t kGrain = 1000;

struct Coverage {
  std::vector<std::pair<std::size_t, std::size_t>> chunks;  // sorted
  std::vector<int> hits;
  std::set<std::thread::id> threads;
};

Coverage cover(std::size_t count, std::size_t grain) {
  auto hits = std::make_unique<std::atomic<int>[]>(count);
  for (std::size_t i = 0; i < count; ++i) hits[i] = 0;
  Coverage c;
  std::mutex mutex;
  parallel_for(count, grain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) ++hits[i];
    const std::lock_guard<std::mutex> lock(mutex);
    c.chunks.emplace_back(begin, end);
    c.threads.insert(std::this_thread::get_id());
  });
  std::sort(c.chunks.begin(), c.chunks.end());
  for (std::size_t i = 0; i < count; ++i) c.hits.push_back(hits[i]);
  return c;
}

TEST(ParallelFor, CoversEveryIndexOnceInFixedChunksWhateverTheThreads) {
  for (const unsigned threads : {1u, 2u, 7u}) {
    const ScopedHostThreads scope(threads);
    for (const std::size_t count : {std::size_t{0}, std::size_t{1}, kGrain - 1, kGrain,
                                    kGrain + 1, 7 * kGrain, std::size_t{1'000'003}}) {
      const Coverage c = cover(count, kGrain);
      EXPECT_EQ(c.hits, std::vector<int>(count, 1)) << count << " on " << threads << " threads";
      ASSERT_EQ(c.chunks.size(), chunk_count(count, kGrain)) << count;
      for (std::size_t k = 0; k < c.chunks.size(); ++k) {
        EXPECT_EQ(c.chunks[k].first, k * kGrain);
        EXPECT_EQ(c.chunks[k].second, std::min((k + 1) * kGrain, count));
      }
      EXPECT_LE(c.threads.size(), threads);
    }
  }
}

TEST(ParallelFor, SmallRangesAndOneThreadStayOnTheCallingThread) {
  const std::set<std::thread::id> caller = {std::this_thread::get_id()};
  {
    const ScopedHostThreads scope(7);
    EXPECT_EQ(cover(kGrain, kGrain).threads, caller);
    EXPECT_EQ(cover(1, kGrain).threads, caller);
    EXPECT_TRUE(cover(0, kGrain).threads.empty()) << "no call for an empty range";
  }
  const ScopedHostThreads scope(1);
  EXPECT_EQ(cover(100 * kGrain, kGrain).threads, caller);
}

TEST(ParallelFor, UsesSeveralThreadsForManyChunks) {
  const ScopedHostThreads scope(4);
  // Each chunk waits until a second thread has joined in, or gives up after a while.
  std::atomic<int> running{0};
  std::set<std::thread::id> seen;
  std::mutex mutex;
  parallel_for(8, 1, [&](std::size_t, std::size_t) {
    ++running;
    for (int spin = 0; spin < 2000 && running.load() < 2; ++spin) {
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    const std::lock_guard<std::mutex> lock(mutex);
    seen.insert(std::this_thread::get_id());
  });
  EXPECT_GE(seen.size(), 2u);
}

TEST(ParallelFor, AZeroGrainMeansOneIndexPerChunk) {
  const ScopedHostThreads scope(2);
  const Coverage c = cover(5, 0);
  EXPECT_EQ(c.hits, std::vector<int>(5, 1));
  EXPECT_EQ(c.chunks.size(), 5u);
}

TEST(ParallelFor, AnExceptionInAChunkReachesTheCaller) {
  for (const unsigned threads : {1u, 2u, 7u}) {
    const ScopedHostThreads scope(threads);
    for (const std::size_t count : {std::size_t{10}, 50 * kGrain}) {
      std::atomic<std::size_t> calls{0};
      try {
        parallel_for(count, kGrain, [&](std::size_t begin, std::size_t end) {
          ++calls;
          if (begin <= count / 2 && count / 2 < end) throw std::runtime_error("chunk failed");
        });
        FAIL() << "no exception, " << count << " on " << threads << " threads";
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "chunk failed");
      }
      EXPECT_GE(calls.load(), 1u);
    }
  }
}

TEST(ParallelMap, ReturnsOneResultPerChunkInChunkOrder) {
  for (const unsigned threads : {1u, 2u, 7u}) {
    const ScopedHostThreads scope(threads);
    const auto sizes = parallel_map(
        10 * kGrain + 3, kGrain, [](std::size_t begin, std::size_t end) { return end - begin; });
    std::vector<std::size_t> expected(10, kGrain);
    expected.push_back(3);
    EXPECT_EQ(sizes, expected);
    EXPECT_TRUE(parallel_map(0, kGrain, [](std::size_t, std::size_t) { return 1; }).empty());
  }
}

TEST(HostThreads, ReadsAPositiveKbenchHostThreadsElseTheHardware) {
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  {
    const ScopedHostThreads scope(nullptr);
    EXPECT_EQ(host_threads(), hardware);
  }
  {
    const ScopedHostThreads scope("3");
    EXPECT_EQ(host_threads(), 3u);
  }
  for (const char* bad : {"", "0", "-2", " 4", "4x", "abc", "99999999999999999999"}) {
    const ScopedHostThreads scope(bad);
    EXPECT_EQ(host_threads(), hardware) << "'" << bad << "'";
  }
}

}  // namespace
}  // namespace kb
