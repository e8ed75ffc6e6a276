// The children that run plugin code (the probe and the workers) confine it before loading any,
// where the kernel allows it:
// - Landlock (Linux 5.13+): writes only beneath the places a GPU run needs to write to: the
//   process's own temporary folder (private_temporary_folder below; TMPDIR points to it), the
//   NVIDIA device nodes, /dev/shm, /dev/null and its kin, the CUDA and user caches: ~/.nv,
//   $CUDA_CACHE_PATH, ~/.cache. Not /proc (its /proc/self/mem writes over any page), not a
//   terminal. A plugin cannot write,
//   create, remove, rename or truncate anything else: not the results or samples file, not the
//   user's sources, not /tmp, where a results file may lie. Reading stays open everywhere (the CUDA driver reads
//   /dev/nvidia*, /proc, /sys, the plugin's folder and the CUDA libraries): the rule set denies
//   writes, it lists no reads. A Landlock domain also bars tracing any process outside it.
// - seccomp: ptrace, process_vm_readv/writev and pidfd_getfd (another process's memory and
//   descriptors), and setsid/setpgid (leaving the process group its worker ends with) fail with
//   EPERM; so does a signal to the kbench that started the process, to its process group or to
//   every process (kill -1), and pidfd_open of that kbench (and of the referee that judges it): a
//   plugin that stopped or killed it would lose the run's rows without a word. So do the terminal
//   requests that would take the terminal from kbench (TIOCSPGRP, TIOCSTI, TIOCSCTTY, ...) or
//   change its modes. Landlock ABI 6 (Linux 6.12) scopes signals to the
//   domain as well. The plugin may still signal itself and its own children. Its parent's
//   priority, scheduling, CPUs and resource limits are not its to set either.
// Both need no_new_privs: a set-user-ID program the plugin runs gains no privilege. (The CUDA
// driver runs nvidia-modprobe, set-user-ID, only to create missing /dev/nvidia* nodes; the parent
// has initialised CUDA before any worker starts, which creates them.) KBENCH_SANDBOX=off in the
// environment leaves the children unconfined: for a debugger, a profiler that injects itself, or
// a driver set-up this rule set does not foresee (docs/nothing-lost.md).
// Whatever the kernel offers, and with the sandbox off too, the process raises its own
// oom_score_adj to 1000: out of memory, the kernel kills it (its case becomes a row) before the
// kbench that writes the rows.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace kb {

struct SandboxSupport {
  int landlock_abi = 0;  // 0: none (kernel without it, or disabled)
  bool seccomp = false;
  bool disabled = false;  // KBENCH_SANDBOX=off
  // "" when both parts apply here; otherwise one line saying what does not, and why.
  std::string missing() const;
};

// What this kernel (and environment) offers, without applying anything.
SandboxSupport sandbox_support();

// Confines the calling process for good (see above), as far as the kernel allows; a part the
// kernel lacks is left out. A runtime_error when a part the kernel offers cannot be applied.
// `also_writable`: more folders writes may go beneath (kbench's compiled-kernel cache), each
// where it exists when the sandbox is entered (one that does not is left out: nothing can make
// it from inside). `also_protected`: processes beside the parent that may not be signalled (the
// worker's referee), nor their process groups.
void enter_sandbox(const std::vector<std::string>& also_writable = {},
                   const std::vector<pid_t>& also_protected = {});

// The folders a confined process may write beneath: `temporary` (its own temporary folder),
// `also_writable`, and those every GPU run writes to (devices, the caches). A file beneath one is
// within a plugin's reach: kbench refuses to write its results there.
std::vector<std::string> writable_folders(const std::string& temporary,
                                          const std::vector<std::string>& also_writable);

// Makes and removes a folder, with a byte in it, where the children make their own temporary
// folders: a WriteError when there is no room (no inodes, no space), kbench's trouble to be said
// once, before any child starts, rather than by each child as it fails.
void check_room_for_private_temporary_folders();

// A confined process's own temporary folder: kbench-<pid> in $TMPDIR (where it names a folder)
// or /tmp. The process makes it as it enters the sandbox; whoever waits for the process removes
// it once it has ended (a killed process cannot).
std::string private_temporary_folder(pid_t pid);
void remove_private_temporary_folder(pid_t pid);

}  // namespace kb
