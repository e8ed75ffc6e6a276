#include "protocol/worker_process.hpp"

#include "protocol/sandbox.hpp"
#include "protocol/sequence.hpp"
#include "util/short_of_resources.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
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

WorkerProcess::WorkerProcess(const std::vector<std::string>& args,
                             const std::vector<int>& inherited) {
  // What fails here is kbench's (its descriptors or processes ran out), and says so.
  const auto cannot_start = [&](const std::string& why) {
    return ShortOfResources("start a " + args[1] + " process", why);
  };
  // Sockets, not pipes: a pipe's end can be opened again through /proc/self/fd, and a plugin that
  // opened its requests' pipe for writing fed its own worker a case of its choosing. Each end is
  // shut the way it does not go: the child can neither write requests nor read answers.
  int cases[2], results[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, cases) != 0) {
    throw cannot_start("socketpair: " + std::string(strerror(errno)));
  }
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, results) != 0) {
    const int error = errno;
    close(cases[0]), close(cases[1]);
    throw cannot_start("socketpair: " + std::string(strerror(error)));
  }
  ::shutdown(cases[0], SHUT_WR);
  ::shutdown(results[1], SHUT_RD);
  int errors[2];
  if (pipe2(errors, O_CLOEXEC) != 0) {
    const int error = errno;
    close(cases[0]), close(cases[1]), close(results[0]), close(results[1]);
    throw cannot_start("pipe: " + std::string(strerror(error)));
  }
  // A plugin's text reaches the terminal as kbench's own does: escaped (stderr_relay.hpp).
  try {
    errors_ = std::make_unique<StderrRelay>(errors[0]);
  } catch (...) {
    close(cases[0]), close(cases[1]), close(results[0]), close(results[1]), close(errors[1]);
    throw;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears close-on-exec on the target, so only these cross into the worker.
  posix_spawn_file_actions_adddup2(&actions, cases[0], 0);
  posix_spawn_file_actions_adddup2(&actions, errors[1], 2);
  posix_spawn_file_actions_adddup2(&actions, results[1], 3);
  // Above every descriptor the actions write, so no dup2 overwrites one still to be copied.
  std::vector<int> above;
  for (std::size_t i = 0; i < inherited.size(); ++i) {
    above.push_back(::fcntl(inherited[i], F_DUPFD_CLOEXEC, 16));
    posix_spawn_file_actions_adddup2(&actions, above.back(), static_cast<int>(4 + i));
  }
  // SIGINT, SIGTERM and SIGHUP reach the whole process group (Ctrl-C, timeout(1)), and Slurm and
  // systemd send SIGTERM to every process of the job: the child starts with them blocked, so
  // they stay pending and never end it, and the parent alone decides what becomes of the case in
  // flight. Blocked signals survive exec; the parent's handlers do not.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // In a process group of its own it is a background job of the terminal: SIGTTOU and SIGTTIN
  // blocked, its writes to the terminal go through even with `stty tostop`.
  sigset_t blocked;
  sigemptyset(&blocked);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGTTOU, SIGTTIN}) sigaddset(&blocked, sig);
  posix_spawnattr_setsigmask(&attributes, &blocked);
  // Its own process group (its pid): kill(-pid) ends it and every descendant that stayed in it.
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int error = posix_spawn(&pid_, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(cases[0]);
  close(results[1]);
  for (const int fd : above) close(fd);
  close(errors[1]);
  to_worker_ = cases[1];
  from_worker_ = results[0];
  if (error != 0) {
    close(to_worker_), close(from_worker_);
    pid_ = -1;
    throw cannot_start(args[0] + ": " + strerror(error));
  }
  // Numbers that start where nothing in the child can guess: a plugin that numbered a forged
  // answer by its own count of cases answered nothing.
  std::random_device entropy;
  sequence_ = ((std::uint64_t{entropy()} << 32) ^ entropy()) >> 12;
  // Linux 5.3 and later; without it, the end of a child is seen when its channel closes.
  ended_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
  if (ended_ >= 0) ::fcntl(ended_, F_SETFD, FD_CLOEXEC);
  reader_ = LineReader(from_worker_, ended_);
}

WorkerProcess::~WorkerProcess() {
  if (pid_ > 0) kill();
  if (to_worker_ >= 0) close(to_worker_);
  if (from_worker_ >= 0) close(from_worker_);
  if (ended_ >= 0) close(ended_);
}

bool WorkerProcess::send(const std::string& kind, const Record& fields) {
  Record numbered = fields;
  set_sequence(numbered, ++sequence_);
  sent_ = true;
  return write_text(to_worker_, encode_record(kind, numbered));
}

WorkerProcess::Received WorkerProcess::receive(std::string& kind, Record& fields, int timeout_ms) {
  std::string line;
  switch (reader_.read_line(line, timeout_ms)) {
    case LineReader::Status::timeout: return Received::timeout;
    case LineReader::Status::eof: return Received::ended;
    case LineReader::Status::line: break;
  }
  if (!decode_record(line, kind, fields)) {
    kind = line.substr(0, 80);
    fields.clear();
    return Received::out_of_step;
  }
  const std::uint64_t expected = sent_ ? sequence_ : 0;  // 0: a greeting before any request
  return take_sequence(fields) == expected ? Received::record : Received::out_of_step;
}

std::string WorkerProcess::wait_for_exit() {
  // Its descendants first, while it is not yet reaped: its pid, and so its process group's id,
  // cannot be another process's yet.
  siginfo_t info{};
  while (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  ::kill(-pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  remove_private_temporary_folder(pid_);
  errors_.reset();  // what it wrote is shown before its end is said
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
  ::kill(-pid_, SIGKILL);
  wait_for_exit();
}

}  // namespace kb
