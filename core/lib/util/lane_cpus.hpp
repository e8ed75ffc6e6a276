// The cores each lane of a run keeps to. A lane's host work (a host strategy's loop, a referee's
// references and checks) timed beside another lane's slowed it: the host lane's serial transpose
// of 8192² float64 took 1.9x as long with a device lane beside it as alone. A lane thread pins
// itself, and the worker and referee it starts inherit the mask.
#pragma once

#include <vector>

namespace kb {

// The CPUs this process may run on (sched_getaffinity: a cgroup's or taskset's limit holds).
std::vector<int> allowed_cpus();

// `cpus` dealt into `lanes` contiguous groups, the earlier groups one larger where they do not
// divide; with fewer CPUs than lanes, lane i shares CPU i % cpus.size(). Empty groups for no CPUs.
std::vector<std::vector<int>> lane_cpus(const std::vector<int>& cpus, int lanes);

// Keeps the calling thread (and the processes it starts from now on) to `cpus`; false, with the
// thread as it was, where the system refuses.
bool keep_thread_to(const std::vector<int>& cpus);

}  // namespace kb
