#include "interruption.hpp"

#include "exit_codes.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <initializer_list>

namespace kb {
namespace {

volatile sig_atomic_t g_interrupts = 0;
volatile sig_atomic_t g_worker_pids[kMaxLanes] = {};
const char* volatile g_last_words = "kbench: interrupted twice; stopped at once\n";

void abandon_cases_in_flight() {
  for (int lane = 0; lane < kMaxLanes; ++lane) {
    // A worker leads its own process group: its descendants go with it.
    if (g_worker_pids[lane] > 0) kill(-g_worker_pids[lane], SIGKILL);
  }
}

void on_interrupt(int sig) {
  if (++g_interrupts >= 2) {
    abandon_cases_in_flight();
    const char* words = g_last_words;
    [[maybe_unused]] const ssize_t written = ::write(2, words, std::strlen(words));
    _exit(kExitInterrupted);
  }
  if (sig != SIGINT) abandon_cases_in_flight();
}

// Besides SIGINT, SIGTERM and SIGHUP, every signal whose default action ends the process (a quit
// key, a timer or CPU limit run out, a user signal sent by mistake) ends it as SIGTERM does, with
// the resume command, never without a line.
constexpr int kInterruptions[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,   SIGUSR1,
                                  SIGUSR2, SIGALRM, SIGXCPU, SIGVTALRM, SIGPROF};

}  // namespace

void handle_interruptions() {
  signal(SIGPIPE, SIG_IGN);
  for (int sig : kInterruptions) signal(sig, on_interrupt);
}

sigset_t interruption_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  for (int sig : kInterruptions) sigaddset(&signals, sig);
  return signals;
}

bool interrupted() { return g_interrupts > 0; }

void interrupt() {
  if (g_interrupts == 0) g_interrupts = 1;
}

void set_lane_worker(int lane, pid_t pid) { g_worker_pids[lane] = pid; }

void set_last_words(const char* words) { g_last_words = words; }

}  // namespace kb
