#include "util/lane_cpus.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace kb {
namespace {

int topology_number(int cpu, const char* name) {
  std::ifstream in("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/" + name);
  int value = -1;
  return in >> value ? value : -1;
}

// `units` (each a list of CPUs) dealt into `lanes` contiguous groups of units.
std::vector<std::vector<int>> deal(const std::vector<std::vector<int>>& units, std::size_t lanes) {
  std::vector<std::vector<int>> groups(lanes);
  const std::size_t each = units.size() / lanes;
  const std::size_t larger = units.size() % lanes;
  std::size_t next = 0;
  for (std::size_t lane = 0; lane < lanes; ++lane) {
    for (std::size_t n = each + (lane < larger ? 1 : 0); n > 0; --n, ++next) {
      groups[lane].insert(groups[lane].end(), units[next].begin(), units[next].end());
    }
    std::sort(groups[lane].begin(), groups[lane].end());
  }
  return groups;
}

}  // namespace

std::vector<CpuPlace> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<CpuPlace> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &set)) continue;
    const int package = topology_number(cpu, "physical_package_id");
    const int core = topology_number(cpu, "core_id");
    // A negative key can be no real core's: the CPU stands alone.
    cpus.push_back({cpu, package < 0 || core < 0 ? -1 - cpu : package * 65536 + core});
  }
  return cpus;
}

std::vector<std::vector<int>> lane_cpus(const std::vector<CpuPlace>& cpus, int lanes) {
  if (lanes <= 0) return {};
  const auto count = static_cast<std::size_t>(lanes);
  if (cpus.empty()) return std::vector<std::vector<int>>(count);
  std::vector<std::vector<int>> cores;
  std::vector<int> keys;
  for (const CpuPlace& place : cpus) {
    const auto at = std::find(keys.begin(), keys.end(), place.core);
    if (at == keys.end()) {
      keys.push_back(place.core);
      cores.push_back({place.cpu});
    } else {
      cores[static_cast<std::size_t>(at - keys.begin())].push_back(place.cpu);
    }
  }
  if (cores.size() >= count) return deal(cores, count);
  std::vector<std::vector<int>> logical;
  for (const CpuPlace& place : cpus) logical.push_back({place.cpu});
  if (logical.size() >= count) return deal(logical, count);
  std::vector<std::vector<int>> shared(count);
  for (std::size_t lane = 0; lane < count; ++lane) shared[lane] = logical[lane % logical.size()];
  return shared;
}

bool keep_thread_to(const std::vector<int>& cpus) {
  if (cpus.empty()) return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus) CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

}  // namespace kb
