// The board's mean power while one case runs back to back (--energy-window), from NVML's energy
// counter.
#pragma once

#include "device/gpu_monitor.hpp"
#include "measure/cuda_timer.hpp"
#include "measure/launch.hpp"

#include <optional>

namespace kb {

// Launches back to back for `seconds` (after a short settling time) and returns the least-squares
// slope of energy against time, in watts; none when the counter did not move often enough.
kb_status energy_window(const LaunchOnce& launch, cudaStream_t stream, GpuMonitor& monitor,
                        double seconds, double expected_us, kb_message& message,
                        std::optional<double>& watts);

}  // namespace kb
