// How `run` and `tune` stop on a signal, and how a second signal stops them at once.
// SIGINT (a person at the terminal): finish the cases in flight, then stop. SIGTERM and SIGHUP
// (timeout(1), a scheduler's time limit, a closed session: the process has seconds, not a case's
// minutes): abandon the cases in flight at once and stop. An abandoned case gets no row, so
// --resume runs it again; every row already written is whole. A second signal: stop now. The
// other signals that would end the process (SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU,
// SIGVTALRM, SIGPROF) are taken as SIGTERM.
#pragma once

#include <signal.h>
#include <sys/types.h>

namespace kb {

constexpr int kMaxLanes = 64;  // one lane per device in use, plus the host

// Installs the handlers (and ignores SIGPIPE: a dead worker's pipe is reported, not fatal).
void handle_interruptions();
// The signals handle_interruptions() takes, to hold (block) over a step that must not be cut.
sigset_t interruption_signals();
// A signal came, or interrupt() was called.
bool interrupted();
// Stopped from outside without a signal of ours (a worker killed by someone else): stop as if
// the signal had been ours.
void interrupt();
// The worker a lane is running (0: none), killed when its case is abandoned.
void set_lane_worker(int lane, pid_t pid);
// What a second signal prints before the process ends; `words` must outlive the run.
void set_last_words(const char* words);

}  // namespace kb
