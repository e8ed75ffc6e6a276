// The timings a row is checked against besides its held samples (judge/plausibility.hpp judges
// them): the same case launched back to back, a launch timed by the host around a device-wide
// synchronise, and the operations one launch puts on the stream it is given.
#pragma once

#include "measure/cuda_timer.hpp"
#include "measure/launch.hpp"

namespace kb {

struct BatchTiming {
  double launch_us = 0;   // per launch, back to back
  double enqueue_us = 0;  // host time to enqueue one launch
};
kb_status batch_timing(const LaunchOnce& launch, cudaStream_t stream, CudaTimer& timer,
                       double expected_us, kb_message& message, BatchTiming& timing);

struct HostTiming {
  double launch_us = 0;  // a synchronised launch of the plugin
  double idle_us = 0;    // a synchronised launch of an empty kernel
};
kb_status synchronised_host_timing(const LaunchOnce& launch, cudaStream_t stream,
                                   double expected_us, kb_message& message, HostTiming& timing);

// The nodes of a graph captured from one launch; -1 when the launch cannot be captured (it
// synchronises, or capture is refused).
long long captured_operations(const LaunchOnce& launch, cudaStream_t stream);

}  // namespace kb
