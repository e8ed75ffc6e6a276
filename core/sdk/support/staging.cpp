#include <kbench/support/staging.hpp>

#include <kbench/support/error.hpp>
#include <kbench/support/parallel.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <mutex>
#include <vector>

namespace kb {
namespace {

// Two pinned buffers, a stream and an event per buffer (set when the buffer's last copy is done),
// made on first use. They are never freed: the worker ends with its process, and freeing CUDA
// resources from a static destructor can run after the runtime has shut down.
class Staging {
 public:
  static Staging& process() {
    static Staging staging;
    return staging;
  }

  std::mutex mutex;  // one staged copy at a time
  void* buffers[2] = {nullptr, nullptr};
  cudaEvent_t done[2] = {nullptr, nullptr};
  cudaStream_t stream = nullptr;

  // Whether the buffers are there and the stream and events belong to the current device.
  bool ready() {
    if (unavailable_) return false;
    if (buffers[0] == nullptr) {
      for (void*& buffer : buffers) {
        // Portable: pinned for every device of the process, not only the current one.
        if (cudaHostAlloc(&buffer, kStagingChunk, cudaHostAllocPortable) != cudaSuccess) {
          cudaGetLastError();
          unavailable_ = true;
          return false;
        }
      }
    }
    int current = 0;
    KB_CUDA_CHECK(cudaGetDevice(&current));
    if (current != device_) {
      // Events and streams belong to the device that was current when they were made.
      for (cudaEvent_t& event : done) {
        KB_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
      }
      // A blocking stream: like the cudaMemcpy it replaces, a staged copy waits for work a plugin
      // queued on the legacy default stream (a conversion before a download, say).
      KB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamDefault));
      device_ = current;
    }
    return true;
  }

 private:
  bool unavailable_ = false;
  int device_ = -1;
};

std::size_t steps_of(std::size_t bytes) { return (bytes + kStagingChunk - 1) / kStagingChunk; }

}  // namespace

void upload_staged(void* device, const void* host, std::size_t bytes) {
  Staging& staging = Staging::process();
  const std::lock_guard<std::mutex> lock(staging.mutex);
  if (bytes < kStagingChunk || !staging.ready()) {
    KB_CUDA_CHECK(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
    return;
  }
  auto* to = static_cast<unsigned char*>(device);
  const auto* from = static_cast<const unsigned char*>(host);
  for (std::size_t step = 0; step < steps_of(bytes); ++step) {
    const std::size_t offset = step * kStagingChunk;
    const std::size_t n = std::min(kStagingChunk, bytes - offset);
    const int b = static_cast<int>(step % 2);
    KB_CUDA_CHECK(cudaEventSynchronize(staging.done[b]));  // the buffer's last chunk has left
    parallel_copy(staging.buffers[b], from + offset, n);
    KB_CUDA_CHECK(cudaMemcpyAsync(to + offset, staging.buffers[b], n, cudaMemcpyHostToDevice,
                                  staging.stream));
    KB_CUDA_CHECK(cudaEventRecord(staging.done[b], staging.stream));
  }
  KB_CUDA_CHECK(cudaStreamSynchronize(staging.stream));
}

namespace detail {

void download_staged(const void* device, std::size_t bytes, ChunkSink call, void* sink) {
  Staging& staging = Staging::process();
  const std::lock_guard<std::mutex> lock(staging.mutex);
  const auto* from = static_cast<const unsigned char*>(device);
  const std::size_t steps = steps_of(bytes);
  if (!staging.ready()) {
    std::vector<unsigned char> chunk(std::min(bytes, kStagingChunk));
    for (std::size_t step = 0; step < steps; ++step) {
      const std::size_t offset = step * kStagingChunk;
      const std::size_t n = std::min(kStagingChunk, bytes - offset);
      KB_CUDA_CHECK(cudaMemcpy(chunk.data(), from + offset, n, cudaMemcpyDeviceToHost));
      call(sink, chunk.data(), offset, n);
    }
    return;
  }
  const auto start = [&](std::size_t step) {
    const std::size_t offset = step * kStagingChunk;
    const int b = static_cast<int>(step % 2);
    KB_CUDA_CHECK(cudaMemcpyAsync(staging.buffers[b], from + offset,
                                  std::min(kStagingChunk, bytes - offset), cudaMemcpyDeviceToHost,
                                  staging.stream));
    KB_CUDA_CHECK(cudaEventRecord(staging.done[b], staging.stream));
  };
  try {
    if (steps > 0) start(0);
    for (std::size_t step = 0; step < steps; ++step) {
      // The other buffer's chunk was consumed in the step before: it can take the next one.
      if (step + 1 < steps) start(step + 1);
      const int b = static_cast<int>(step % 2);
      KB_CUDA_CHECK(cudaEventSynchronize(staging.done[b]));
      const std::size_t offset = step * kStagingChunk;
      call(sink, staging.buffers[b], offset, std::min(kStagingChunk, bytes - offset));
    }
  } catch (...) {
    // No copy may still be writing a buffer the next staged copy fills.
    cudaStreamSynchronize(staging.stream);
    throw;
  }
}

}  // namespace detail
}  // namespace kb
