// Host plugins for the loader's and the runner's failure paths, built from this one file with a
// different KBT_FAULT each (see tests/CMakeLists.txt). KBT_FAULT names what goes wrong; "none" is
// a correct plugin: out = 2 * in over n integers, checked exactly.
#include <kbench/plugin.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <cerrno>
#include <fcntl.h>
#include <signal.h>
#include <stdexcept>
#include <string>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#ifndef KBT_NAME
#define KBT_NAME "testing/good"
#endif
#define KBT_IS(fault) (std::strcmp(KBT_FAULT, fault) == 0)

namespace {

struct State {
  std::vector<int> in, out;
  int scale = 2;  // KBT_FAULT "params": the case's parameter scale; else 2
};

volatile int* null_pointer = nullptr;

void fault_at(const char* stage) {
  if (std::strncmp(KBT_FAULT, stage, std::strlen(stage)) != 0) return;
  const char* what = KBT_FAULT + std::strlen(stage);
  if (!std::strcmp(what, "_segfault")) *null_pointer = 1;
  if (!std::strcmp(what, "_abort")) std::abort();
  if (!std::strcmp(what, "_exit")) std::exit(3);
  if (!std::strcmp(what, "_exit0")) std::exit(0);
  if (!std::strcmp(what, "_hang")) while (true) {}
  if (!std::strcmp(what, "_throw")) throw std::runtime_error("thrown inside the plugin");
}

// Fills a buffer to its last byte, without a NUL, with text no output may carry as is: an invalid
// UTF-8 byte, a control character and an escape.
template <std::size_t N>
void fill_unterminated(char (&buffer)[N]) {
  static const char kPattern[] = {'x', '\xff', '\x01', '\x1b', ','};
  for (std::size_t i = 0; i < N; ++i) buffer[i] = kPattern[i % sizeof kPattern];
}

// The worker's result channel (descriptor 3): a plugin must never write there; these do.
void write_on_channel(const std::string& line) {
  [[maybe_unused]] const ssize_t n = ::write(3, line.data(), line.size());
}

// A process the plugin leaves behind, holding the worker's descriptors (its result channel, its
// standard error) for a minute.
void leave_a_child_behind() {
  if (fork() == 0) {
    sleep(60);
    _exit(0);
  }
}

// Faults of the worker's channel and of the processes a plugin starts, at setup of the first case
// (100 elements) or of every case.
void channel_fault(const kb_case* c) {
  static int cases = 0;  // the worker numbers its cases from 1 (protocol/sequence.hpp)
  ++cases;
  if (c->shape[0] == 100 && KBT_IS("setup_forges_result")) {
    write_on_channel("result\tstatus=ok\n");
  }
  if (c->shape[0] == 100 && KBT_IS("setup_forges_unsampled_ok")) {
    write_on_channel("result\tseq=" + std::to_string(cases) + "\tstatus=ok\n");
  }
  if (c->shape[0] == 100 && KBT_IS("setup_floods_channel")) {
    const std::string mebibyte(std::size_t{1} << 20, 'x');
    for (int i = 0; i < 65; ++i) write_on_channel(mebibyte);
  }
  if (KBT_IS("setup_orphan")) leave_a_child_behind();
  if (KBT_IS("setup_orphan_segfault")) {
    leave_a_child_behind();
    *null_pointer = 1;
  }
}

// The process's answer channel (descriptor 3) taken over by a constructor, as a plugin merely
// present in a folder can: every record kbench's code sends from then on passes through this
// plugin's thread, which rewrites it, the request's number kept, before it goes on.
std::string request_number(const std::string& record) {
  const std::size_t at = record.find("\tseq=");
  return at == std::string::npos ? "0" : record.substr(at + 5, record.find_first_of("\t\n", at + 5) - at - 5);
}

void relay_the_channel(std::string (*rewrite)(const std::string& record)) {
  int through[2];
  if (pipe(through) != 0) return;
  const int channel = dup(3);
  dup2(through[1], 3);
  close(through[1]);
  std::thread([=] {
    std::string held;
    char buffer[4096];
    for (ssize_t n; (n = ::read(through[0], buffer, sizeof buffer)) > 0;) {
      held.append(buffer, static_cast<std::size_t>(n));
      for (std::size_t end; (end = held.find('\n')) != std::string::npos; held.erase(0, end + 1)) {
        const std::string out = rewrite(held.substr(0, end + 1));
        [[maybe_unused]] const ssize_t written = ::write(channel, out.data(), out.size());
      }
    }
  }).detach();
}

// Every plugin's verdict a refusal.
std::string refuse_every_verdict(const std::string& record) {
  if (record.rfind("verdict\t", 0) != 0) return record;
  return "verdict\taccepted=0\tseq=" + request_number(record) + "\twhy=refused by another plugin\n";
}

// Any record kbench's own shortage, which ended the command.
std::string as_kbenchs_shortage(const std::string& record) {
  return "short\treason=kbench cannot load anything: forged by a plugin\tseq=" +
         request_number(record) + "\n";
}

// Text a terminal would act on: colours, a bell, a carriage return, and a line in kbench's words.
void write_terminal_codes() {
  const char text[] = "\x1b[1;32mkbench: all cases ok\x1b[0m\a\rthe plugin's line\x1b[2J\n";
  [[maybe_unused]] const ssize_t written = ::write(2, text, sizeof text - 1);
}

// At loading (its static constructors), in the probe and in its worker alike.
__attribute__((constructor)) void at_load() {
  if (KBT_IS("load_relays_verdicts")) relay_the_channel(refuse_every_verdict);
  if (KBT_IS("load_forges_short")) relay_the_channel(as_kbenchs_shortage);
  if (KBT_IS("load_leaks_descriptors")) {
    while (::open("/dev/null", O_RDONLY) >= 0) {
    }
  }
  if (KBT_IS("load_lowers_descriptor_limit")) {
    const rlimit few{4, 4};
    setrlimit(RLIMIT_NOFILE, &few);
  }
  if (KBT_IS("load_writes_terminal_codes")) write_terminal_codes();
  if (KBT_IS("load_closes_requests")) ::close(0);
}

// What a sandboxed plugin tries (protocol/sandbox.hpp), each attempt's outcome in the message of
// an error status: "ok" or the system's reason.
std::string outcome(bool done) { return done ? "ok" : std::strerror(errno); }

// Writes where a plugin must not: the results file the test names (KBT_RESULTS), by appending
// and by truncating, a folder outside the temporary ones (KBT_OUTSIDE) and the shared temporary
// folder (KBT_SHARED_TMP); and where it may, its TMPDIR, which it names.
std::string try_to_write() {
  const char* results = std::getenv("KBT_RESULTS");
  const char* outside = std::getenv("KBT_OUTSIDE");
  const char* shared = std::getenv("KBT_SHARED_TMP");
  if (results == nullptr || outside == nullptr || shared == nullptr) {
    return "KBT_RESULTS, KBT_OUTSIDE and KBT_SHARED_TMP are not all set";
  }
  std::string said = "results: ";
  const int fd = ::open(results, O_WRONLY | O_APPEND);
  said += outcome(fd >= 0 && ::write(fd, "written by the plugin\n", 22) == 22);
  if (fd >= 0) ::close(fd);
  said += "; truncate: " + outcome(::truncate(results, 0) == 0);
  const std::string made = std::string(outside) + "/made-by-the-plugin";
  const int out = ::open(made.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  said += "; outside: " + outcome(out >= 0);
  if (out >= 0) ::close(out);
  const char* tmpdir = std::getenv("TMPDIR");
  const std::string scratch = std::string(tmpdir ? tmpdir : "/tmp") + "/kbt-scratch-XXXXXX";
  std::vector<char> name(scratch.begin(), scratch.end());
  name.push_back('\0');
  const int tmp = ::mkstemp(name.data());
  said += "; tmp: " + outcome(tmp >= 0);
  if (tmp >= 0) ::close(tmp), ::unlink(name.data());
  const std::string left = std::string(shared) + "/kbt-left-by-the-plugin";
  const int in_shared = ::open(left.c_str(), O_WRONLY | O_CREAT, 0644);
  said += "; shared tmp: " + outcome(in_shared >= 0);
  if (in_shared >= 0) ::close(in_shared), ::unlink(left.c_str());
  return said + "; TMPDIR=" + (tmpdir ? tmpdir : "");
}

volatile int target_byte = 0;  // in the child below: what process_vm_writev tries to change

// Reaches into its own worker: its memory written through /proc (which ignores page protections),
// its request channel opened again for writing (a forged case for its own worker), input pushed
// into the terminal it may share with kbench, and that terminal's foreground group taken.
std::string try_to_reach_itself() {
  const int memory = ::open("/proc/self/mem", O_RDWR);
  std::string said = "own memory: " + outcome(memory >= 0);
  if (memory >= 0) ::close(memory);
  const int requests = ::open("/proc/self/fd/0", O_WRONLY);
  said += "; requests reopened: " + outcome(requests >= 0);
  if (requests >= 0) ::close(requests);
  const char input = '\n';
  said += "; input pushed: " + outcome(::ioctl(STDERR_FILENO, TIOCSTI, &input) == 0);
  // The terminal's foreground group taken: Ctrl-C would no longer reach kbench.
  const pid_t group = getpgrp();
  said += "; terminal taken: " + outcome(::ioctl(STDERR_FILENO, TIOCSPGRP, &group) == 0);
  return said;
}

// Reaches into other processes: a child of its own (traced, its memory written, killed), the
// worker's parent (its memory opened through /proc, a signal), every process (a signal), and out of
// the process group its worker ends with.
std::string try_to_reach() {
  const pid_t child = fork();
  if (child == 0) {
    pause();
    _exit(0);
  }
  std::string said = "ptrace: " + outcome(::ptrace(PTRACE_SEIZE, child, nullptr, nullptr) == 0);
  const int one = 1;
  iovec local{const_cast<int*>(&one), sizeof one};
  iovec remote{const_cast<int*>(&target_byte), sizeof target_byte};
  said += "; process_vm_writev: " + outcome(::process_vm_writev(child, &local, 1, &remote, 1, 0) ==
                                            static_cast<ssize_t>(sizeof one));
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  const std::string memory = "/proc/" + std::to_string(getppid()) + "/mem";
  const int fd = ::open(memory.c_str(), O_RDWR);
  said += "; parent memory: " + outcome(fd >= 0);
  if (fd >= 0) ::close(fd);
  // A child of the plugin leaving the group (the worker, its leader, could not in any case).
  const pid_t leaver = fork();
  if (leaver == 0) _exit(::setsid() >= 0 ? 0 : errno);
  int status = 0;
  ::waitpid(leaver, &status, 0);
  errno = WEXITSTATUS(status);
  said += "; setsid: " + outcome(errno == 0);
  // Signal 0 asks whether a signal could be sent, and sends none.
  said += "; signal the parent: " + outcome(::kill(getppid(), 0) == 0);
  said += "; signal every process: " + outcome(::kill(-1, 0) == 0);
  // The parent's priority set to what it is (no change where it goes through), and its
  // oom_score_adj opened for writing and not written.
  errno = 0;
  const int nice = ::getpriority(PRIO_PROCESS, getppid());
  said += "; the parent's priority: " + outcome(::setpriority(PRIO_PROCESS, getppid(), nice) == 0);
  const std::string score_of_parent = "/proc/" + std::to_string(getppid()) + "/oom_score_adj";
  const int parent_score = ::open(score_of_parent.c_str(), O_WRONLY);
  said += "; the parent's oom_score_adj: " + outcome(parent_score >= 0);
  if (parent_score >= 0) ::close(parent_score);
  std::ifstream score("/proc/self/oom_score_adj");
  std::string oom_score_adj;
  score >> oom_score_adj;
  return said + "; oom_score_adj " + oom_score_adj + "; " + try_to_reach_itself();
}

// Holds a read lock on the results file's append byte (store/file_lock.hpp) for as long as its
// worker lives: reading the file is enough to lock a byte of it.
void lock_the_results_file() {
  const char* results = std::getenv("KBT_RESULTS");
  const int fd = results != nullptr ? ::open(results, O_RDONLY) : -1;
  struct flock range {};
  range.l_type = F_RDLCK;
  range.l_whence = SEEK_SET;
  range.l_start = off_t{1} << 61;
  range.l_len = 1;
  if (fd >= 0) ::fcntl(fd, F_OFD_SETLK, &range);
}

int accepts(const kb_case* c, kb_message* why) {
  fault_at("accepts");
  if (KBT_IS("accepts_unterminated")) {
    fill_unterminated(why->text);
    return 0;
  }
  if (c->shape[0] > 1000000) {
    std::snprintf(why->text, sizeof why->text, "at most 10^6 elements");
    return 0;
  }
  // A constraint on the parameters, as a tuned plugin declares one.
  if (KBT_IS("params") && std::strcmp(c->params, "scale=4") == 0 && c->shape[0] > 500) {
    std::snprintf(why->text, sizeof why->text, "scale=4 takes at most 500 elements");
    return 0;
  }
  return 1;
}

kb_status setup(const kb_case* c, void** state, kb_work* work, kb_message* msg) {
  fault_at("setup");
  if (KBT_IS("load_writes_terminal_codes")) write_terminal_codes();
  channel_fault(c);
  if (KBT_IS("setup_locks_results")) lock_the_results_file();
  if (KBT_IS("setup_writes_outside") || KBT_IS("setup_reaches_other_processes")) {
    const std::string said = KBT_IS("setup_writes_outside") ? try_to_write() : try_to_reach();
    std::snprintf(msg->text, sizeof msg->text, "%s", said.c_str());
    return KB_ERROR;
  }
  if (KBT_IS("setup_error")) {
    std::snprintf(msg->text, sizeof msg->text, "setup refused, with \"quotes\", commas\nand a newline");
    return KB_ERROR;
  }
  if (KBT_IS("setup_unterminated")) {
    fill_unterminated(msg->text);
    return KB_ERROR;
  }
  if (KBT_IS("setup_oom")) {
    std::snprintf(msg->text, sizeof msg->text, "cannot allocate 1 TB");
    return KB_OOM;
  }
  auto* s = new State;
  if (KBT_IS("params")) s->scale = std::atoi(std::strchr(c->params, '=') + 1);
  s->in.resize(static_cast<std::size_t>(c->shape[0]));
  for (std::size_t i = 0; i < s->in.size(); ++i) s->in[i] = static_cast<int>((i * 7 + c->seed) % 1000) + 1;
  s->out.resize(s->in.size());
  work->bytes = 8.0 * s->in.size();
  work->flops = static_cast<double>(s->in.size());
  *state = s;
  return KB_OK;
}

kb_status poison(void* state, void*, kb_message*) {
  auto* s = static_cast<State*>(state);
  std::fill(s->out.begin(), s->out.end(), -1);
  return KB_OK;
}

kb_status launch(void* state, void*, kb_launch_config*, kb_message* msg) {
  try {
    fault_at("launch");
  } catch (const std::exception& e) {
    std::snprintf(msg->text, sizeof msg->text, "exception: %s", e.what());
    return KB_ERROR;
  }
  if (KBT_IS("launch_error")) {
    std::snprintf(msg->text, sizeof msg->text, "launch failed on purpose");
    return KB_ERROR;
  }
  if (KBT_IS("launch_verify_failed")) return KB_VERIFY_FAILED;
  auto* s = static_cast<State*>(state);
  for (std::size_t i = 0; i < s->in.size(); ++i) s->out[i] = s->scale * s->in[i];
  return KB_OK;
}

kb_status verify(void* state, kb_verification* result, kb_message* msg) {
  fault_at("verify");
  if (KBT_IS("verify_error")) {
    std::snprintf(msg->text, sizeof msg->text, "could not check");
    return KB_ERROR;
  }
  auto* s = static_cast<State*>(state);
  result->passed = 1;
  result->checked = s->in.size();
  for (std::size_t i = 0; i < s->in.size(); ++i) {
    const int expected = KBT_IS("verify_wrong") ? 3 * s->in[i] : s->scale * s->in[i];
    if (s->out[i] != expected) result->passed = 0, result->max_rel_error = 1.0;
  }
  std::snprintf(result->metrics, sizeof result->metrics, "elements=%zu", s->in.size());
  if (KBT_IS("verify_unterminated")) {
    fill_unterminated(result->metrics);
    fill_unterminated(msg->text);
  }
  return result->passed ? KB_OK : KB_VERIFY_FAILED;
}

void teardown(void* state) { delete static_cast<State*>(state); }

// A family of rank 5, and a parameter whose name has a space and one whose value repeats.
constexpr kb_family kBadFamily = {"testing", 5, "a,b,c,d,e", "10", "", "int32", "10", "",
                                  "time", ""};
constexpr kb_param kBadParams[] = {{"bad name", "1,2", "", "a space in the name"},
                                   {"vec", "1,2,1", "", "a repeated value"}};
constexpr kb_param kScaleParam[] = {{"scale", "2,3", "2,3,4", "out = scale * in"}};

KernelPlugin make_descriptor() {
  KernelPlugin p{};
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = KBT_NAME;
  p.family = "testing";
  p.version = "1";
  p.description = "test plugin: " KBT_FAULT;
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.accepts = accepts;
  p.setup = setup;
  p.poison = poison;
  p.launch = launch;
  p.verify = verify;
  p.teardown = teardown;
  if (KBT_IS("abi_version")) p.abi_version = 99;
  if (KBT_IS("abi_v1")) p.abi_version = 1, p.struct_size = KB_PLUGIN_SIZE_V1;
  if (KBT_IS("family_bad")) p.family_info = &kBadFamily;
  if (KBT_IS("param_bad")) p.params = kBadParams, p.param_count = 2;
  if (KBT_IS("params")) p.params = kScaleParam, p.param_count = 1;
  if (KBT_IS("struct_too_small")) p.struct_size = sizeof(KernelPlugin) - 8;
  if (KBT_IS("null_hook")) p.launch = nullptr;
  if (KBT_IS("bad_name")) p.name = "no_slash";
  if (KBT_IS("name_with_newline")) p.name = "testing/name\nwith a line break";
  if (KBT_IS("ops_repeated")) p.ops = "sum,sumsq,sum";
  if (KBT_IS("garbled_description")) p.description = "caf\xc3\xa9 \xff\xfe\x07 done";
  return p;
}

}  // namespace

#ifndef KBT_NO_ENTRY
extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  fault_at("entry");
  if (KBT_IS("entry_writes_outside")) try_to_write();  // in the probe, at loading
  static const KernelPlugin plugin = make_descriptor();
  return &plugin;
}
#else
extern "C" KB_EXPORT const KernelPlugin* some_other_symbol(void) {
  static const KernelPlugin plugin = make_descriptor();
  return &plugin;
}
#endif
