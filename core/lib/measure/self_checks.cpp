#include "measure/self_checks.hpp"

#include "measure/blocking_kernel.hpp"
#include "util/seconds_since.hpp"
#include "util/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kb {

kb_status batch_timing(const LaunchOnce& launch, cudaStream_t stream, CudaTimer& timer,
                       double expected_us, kb_message& message, BatchTiming& timing) {
  // Enough back-to-back launches for about 2 ms, so the gaps between kernels (launch overhead)
  // are part of the figure, unlike in the samples; the median of three such batches, so one
  // disturbed batch does not make the row's self-check cry wolf. A launch of 2 ms or more is a
  // batch alone, and as many of them as fit in 6 ms: a host's hiccup is a small part of each, and
  // three launches of a 136 ms reduction cost 0.4 s.
  const int count = static_cast<int>(std::clamp(2000.0 / std::max(expected_us, 0.1), 1.0, 1000.0));
  const int batches =
      count > 1 ? 3 : static_cast<int>(std::clamp(std::ceil(6000.0 / expected_us), 1.0, 3.0));
  std::vector<double> per_launch, enqueue;
  for (int batch = 0; batch < batches; ++batch) {
    const auto start = SteadyClock::now();
    timer.start(stream);
    for (int i = 0; i < count; ++i) {
      if (const kb_status status = launch(stream); status) return status;
    }
    timer.stop(stream);
    enqueue.push_back(seconds_since(start) * 1e6 / count);
    if (const kb_status s = from_cuda(timer.wait(), message, "batch launch"); s) return s;
    per_launch.push_back(timer.elapsed_us() / count);
  }
  timing = {summarize(per_launch).median, summarize(enqueue).median};
  return KB_OK;
}

kb_status synchronised_host_timing(const LaunchOnce& launch, cudaStream_t stream,
                                   double expected_us, kb_message& message, HostTiming& timing) {
  // What a user's host clock sees (nvbench's CPU time): the launch, the kernel, and the wait for
  // the whole device, so work the plugin put on another stream is counted too. Beside it, the
  // same for an empty kernel: what waking up from a synchronise costs on this host now (a busy
  // host makes both slow). The least of a few of each, as many as fit in 20 ms: anything else only
  // ever adds, and the check it serves asks for ten times the GPU time.
  const int count =
      static_cast<int>(std::clamp(std::ceil(20000.0 / std::max(expected_us, 1.0)), 1.0, 5.0));
  std::vector<double> launches, idle;
  for (int i = 0; i < count; ++i) {
    auto start = SteadyClock::now();
    launch_empty_kernel(stream);
    if (const kb_status s = from_cuda(cudaDeviceSynchronize(), message, "empty launch"); s) {
      return s;
    }
    idle.push_back(seconds_since(start) * 1e6);
    start = SteadyClock::now();
    if (const kb_status status = launch(stream); status) return status;
    if (const kb_status s = from_cuda(cudaDeviceSynchronize(), message, "synchronised launch"); s) {
      return s;
    }
    launches.push_back(seconds_since(start) * 1e6);
  }
  timing = {summarize(launches).min, summarize(idle).min};
  return KB_OK;
}

long long captured_operations(const LaunchOnce& launch, cudaStream_t stream) {
  // Relaxed mode: work the plugin sends elsewhere runs as usual instead of failing the capture.
  if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  const kb_status status = launch(stream);
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  std::size_t nodes = 0;
  const bool counted = status == KB_OK && ended == cudaSuccess && graph != nullptr &&
                       cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess;
  if (graph != nullptr) cudaGraphDestroy(graph);
  cudaGetLastError();  // a launch that cannot be captured (it synchronises) leaves its error here
  return counted ? static_cast<long long>(nodes) : -1;
}

}  // namespace kb
