#include "protocol/worker_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace kb {

std::string describe_exit(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    return "killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  if (WIFEXITED(wait_status)) return "exited with code " + std::to_string(WEXITSTATUS(wait_status));
  return "ended with wait status " + std::to_string(wait_status);
}

WorkerProcess::WorkerProcess(const std::vector<std::string>& args) {
  int cases[2], results[2];
  if (pipe2(cases, O_CLOEXEC) != 0) throw std::runtime_error("pipe: " + std::string(strerror(errno)));
  if (pipe2(results, O_CLOEXEC) != 0) {
    close(cases[0]), close(cases[1]);
    throw std::runtime_error("pipe: " + std::string(strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears close-on-exec on the target, so only these two cross into the worker.
  posix_spawn_file_actions_adddup2(&actions, cases[0], 0);
  posix_spawn_file_actions_adddup2(&actions, results[1], 3);
  // SIGINT, SIGTERM and SIGHUP reach the whole process group (Ctrl-C, timeout(1)), and Slurm and
  // systemd send SIGTERM to every process of the job: the child starts with them blocked, so
  // they stay pending and never end it, and the parent alone decides what becomes of the case in
  // flight. Blocked signals survive exec; the parent's handlers do not.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t blocked;
  sigemptyset(&blocked);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&blocked, sig);
  posix_spawnattr_setsigmask(&attributes, &blocked);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int error = posix_spawn(&pid_, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(cases[0]);
  close(results[1]);
  to_worker_ = cases[1];
  from_worker_ = results[0];
  reader_ = LineReader(from_worker_);
  if (error != 0) {
    close(to_worker_), close(from_worker_);
    pid_ = -1;
    throw std::runtime_error("cannot start worker " + args[0] + ": " + strerror(error));
  }
}

WorkerProcess::~WorkerProcess() {
  if (pid_ > 0) kill();
  if (to_worker_ >= 0) close(to_worker_);
  if (from_worker_ >= 0) close(from_worker_);
}

bool WorkerProcess::send(const std::string& kind, const Record& fields) {
  return write_text(to_worker_, encode_record(kind, fields));
}

LineReader::Status WorkerProcess::receive(std::string& kind, Record& fields, int timeout_ms) {
  std::string line;
  while (true) {
    const auto status = reader_.read_line(line, timeout_ms);
    if (status != LineReader::Status::line) return status;
    if (decode_record(line, kind, fields)) return status;
  }
}

std::string WorkerProcess::wait_for_exit() {
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  signal_ = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return describe_exit(status);
}

std::string WorkerProcess::finish() {
  if (to_worker_ >= 0) close(to_worker_), to_worker_ = -1;
  return pid_ > 0 ? wait_for_exit() : "not running";
}

void WorkerProcess::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  wait_for_exit();
}

}  // namespace kb
