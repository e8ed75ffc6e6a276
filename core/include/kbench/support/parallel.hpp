// A case's host work (seeded inputs, references, comparisons) on all host threads: at the largest
// sizes it takes seconds on one thread, against milliseconds of GPU work.
//
// The range [0, count) is cut into chunks of exactly `grain` indices (the last may be shorter),
// whatever the number of threads, so a reduction that folds per-chunk results in chunk order
// (parallel_map) gives the same bits on every machine and under every KBENCH_HOST_THREADS.
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

namespace kb {

// Elements per chunk of the element-wise host loops: large enough that a chunk outweighs handing
// it out, small enough to share 2^20 elements among a few dozen threads. Fixed, so reductions
// over it do not depend on the machine.
inline constexpr std::size_t kHostGrain = std::size_t{1} << 16;

// KBENCH_HOST_THREADS where it is a positive integer, else the hardware's threads; at least 1.
// Read at every call: the runner sets it for its workers, tests change it.
unsigned host_threads();

inline std::size_t chunk_count(std::size_t count, std::size_t grain) {
  return grain == 0 ? count : (count + grain - 1) / grain;
}

namespace detail {

using ChunkCall = void (*)(const void* fn, std::size_t begin, std::size_t end);

// The chunks on up to host_threads() threads, the calling one among them.
void run_chunks(std::size_t count, std::size_t grain, ChunkCall call, const void* fn);

}  // namespace detail

// Calls fn(begin, end) once for each chunk of [0, count), concurrently from several threads, so
// fn must be safe to call that way. One chunk runs on the calling thread alone. If chunks throw,
// the chunks not yet started are skipped and one of the exceptions reaches the caller.
template <typename Fn>
void parallel_for(std::size_t count, std::size_t grain, Fn fn) {
  if (grain == 0) grain = 1;
  if (count <= grain) {
    if (count > 0) fn(std::size_t{0}, count);
    return;
  }
  detail::run_chunks(
      count, grain,
      [](const void* f, std::size_t begin, std::size_t end) {
        (*static_cast<const Fn*>(f))(begin, end);
      },
      std::addressof(fn));
}

// memcpy on all host threads (for copies of tens of megabytes and more).
void parallel_copy(void* to, const void* from, std::size_t bytes);

// parallel_for whose chunks each return a value, returned in chunk order: the caller folds them
// from the first, and the result does not depend on how the chunks were shared out.
template <typename Fn>
auto parallel_map(std::size_t count, std::size_t grain, Fn fn)
    -> std::vector<decltype(fn(std::size_t{}, std::size_t{}))> {
  using Result = decltype(fn(std::size_t{}, std::size_t{}));
  // std::vector<bool> packs its elements: two threads writing neighbours would race.
  static_assert(!std::is_same_v<Result, bool>, "return a struct or an int, not bool");
  if (grain == 0) grain = 1;
  std::vector<Result> results(chunk_count(count, grain));
  parallel_for(count, grain, [&results, &fn, grain](std::size_t begin, std::size_t end) {
    results[begin / grain] = fn(begin, end);
  });
  return results;
}

}  // namespace kb
