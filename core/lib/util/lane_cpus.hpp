// The cores each lane of a run keeps to. A lane's host strategy timed beside another lane's host
// work was slowed by it: on the H200's machine the host lane's serial loops ran up to 1.5x slower
// beside a device lane than alone. A lane thread pins itself, and the worker and referee it
// starts inherit the mask. Lanes get whole physical cores where there are enough: two hardware
// threads of one core share its pipelines, and a loop timed on one is slowed by work on the other.
#pragma once

#include <vector>

namespace kb {

struct CpuPlace {
  int cpu = 0;   // the logical CPU, as sched_setaffinity names it
  int core = 0;  // shared by the hardware threads of one physical core
};

// The CPUs this process may run on (sched_getaffinity: a cgroup's or taskset's limit holds), each
// with its physical core (sysfs topology; a CPU whose topology cannot be read is a core of its own).
std::vector<CpuPlace> allowed_cpus();

// `cpus` dealt into `lanes` groups: whole cores, in the order they first appear, the earlier lanes
// one core more where they do not divide. With fewer cores than lanes, logical CPUs are dealt the
// same way; with fewer CPUs than lanes, lane i shares CPU i % cpus.size(). Empty groups for no CPUs.
std::vector<std::vector<int>> lane_cpus(const std::vector<CpuPlace>& cpus, int lanes);

// Keeps the calling thread (and the processes it starts from now on) to `cpus`; false, with the
// thread as it was, where the system refuses.
bool keep_thread_to(const std::vector<int>& cpus);

}  // namespace kb
