#include "measure/energy_window.hpp"

#include "util/seconds_since.hpp"

#include <algorithm>
#include <vector>

namespace kb {
namespace {

double least_squares_slope(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double mean_x = 0, mean_y = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mean_x += x[i] / n, mean_y += y[i] / n;
  double covariance = 0, variance = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    covariance += (x[i] - mean_x) * (y[i] - mean_y);
    variance += (x[i] - mean_x) * (x[i] - mean_x);
  }
  return covariance / variance;
}

}  // namespace

kb_status energy_window(const LaunchOnce& launch, cudaStream_t stream, GpuMonitor& monitor,
                        double seconds, double expected_us, kb_message& message,
                        std::optional<double>& watts) {
  // Launches back to back in chunks of about 2 ms, at most three chunks queued, so the GPU never
  // idles while the host reads the counter between chunks. The counter moves in steps (every
  // 100 ms on an H100); each step is timed within a chunk, and the power is the least-squares
  // slope of energy against time over every step of the window: the counter's resolution and the
  // driver's jitter in publishing a step average out.
  const int chunk = static_cast<int>(std::clamp(2000.0 / std::max(expected_us, 0.1), 1.0, 1000.0));
  const double settle = 0.2;
  const double give_up = settle + 3 * seconds + 1;
  std::vector<cudaEvent_t> queued;
  std::vector<double> times, joules;
  std::optional<double> last_seen;
  const auto start = SteadyClock::now();
  kb_status status = KB_OK;
  while (status == KB_OK && seconds_since(start) < give_up &&
         (times.empty() || times.back() - times.front() < seconds)) {
    for (int i = 0; i < chunk && status == KB_OK; ++i) status = launch(stream);
    cudaEvent_t done = nullptr;
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    cudaEventRecord(done, stream);
    queued.push_back(done);
    if (queued.size() >= 3) {
      status = from_cuda(cudaEventSynchronize(queued.front()), message, "energy window");
      cudaEventDestroy(queued.front());
      queued.erase(queued.begin());
    }
    const std::optional<double> counter = monitor.energy_joules();
    const double now = seconds_since(start);
    if (!counter) break;
    const bool stepped = last_seen && *counter != *last_seen;
    last_seen = counter;
    if (stepped && now >= settle) times.push_back(now), joules.push_back(*counter);
  }
  for (cudaEvent_t e : queued) {
    if (status == KB_OK) status = from_cuda(cudaEventSynchronize(e), message, "energy window");
    cudaEventDestroy(e);
  }
  if (status == KB_OK && times.size() >= 3 && times.back() - times.front() >= seconds) {
    watts = least_squares_slope(times, joules);
  }
  return status;
}

}  // namespace kb
