#include "util/lane_cpus.hpp"

#include <pthread.h>
#include <sched.h>

namespace kb {

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

std::vector<std::vector<int>> lane_cpus(const std::vector<int>& cpus, int lanes) {
  std::vector<std::vector<int>> groups(lanes > 0 ? lanes : 0);
  if (cpus.empty() || groups.empty()) return groups;
  const std::size_t count = cpus.size();
  if (count < groups.size()) {
    for (std::size_t lane = 0; lane < groups.size(); ++lane) groups[lane] = {cpus[lane % count]};
    return groups;
  }
  const std::size_t each = count / groups.size();
  const std::size_t larger = count % groups.size();
  std::size_t next = 0;
  for (std::size_t lane = 0; lane < groups.size(); ++lane) {
    const std::size_t size = each + (lane < larger ? 1 : 0);
    groups[lane].assign(cpus.begin() + next, cpus.begin() + next + size);
    next += size;
  }
  return groups;
}

bool keep_thread_to(const std::vector<int>& cpus) {
  if (cpus.empty()) return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus) CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

}  // namespace kb
