#include "protocol/sandbox.hpp"

#include "util/short_of_resources.hpp"
#include "util/write_error.hpp"

#include <boost/filesystem/operations.hpp>

#include <fcntl.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace kb {
namespace {

// Landlock ABI 3 (Linux 6.2) added truncation; older kernel headers lack its flag.
constexpr std::uint64_t kAccessTruncate = 1ULL << 14;

// Landlock ABI 6 (Linux 6.12) scopes signals to the domain: a process may signal only those in
// its own domain (its children), not the kbench that started it. Older kernel headers lack the
// field and the flag.
struct RulesetAttributes {
  std::uint64_t handled_access_fs;
  std::uint64_t handled_access_net;
  std::uint64_t scoped;
};
constexpr std::uint64_t kScopeSignal = 1ULL << 1;

// ioprio_set's `which` (linux/ioprio.h, not in every distribution's headers).
constexpr int kIoprioWhoProcess = 1;
constexpr int kIoprioWhoProcessGroup = 2;
constexpr int kIoprioWhoUser = 3;

// Every right that changes the file system, none that reads it.
constexpr std::uint64_t kWriteAccess =
    LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
    LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
    LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
    LANDLOCK_ACCESS_FS_MAKE_SYM;

int landlock_abi() {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0,
                             LANDLOCK_CREATE_RULESET_VERSION);
  return abi > 0 ? static_cast<int>(abi) : 0;
}

bool seccomp_available() {
  const std::uint32_t action = SECCOMP_RET_ERRNO;
  return ::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

bool disabled() {
  const char* setting = std::getenv("KBENCH_SANDBOX");
  return setting != nullptr && std::strcmp(setting, "off") == 0;
}

// The system's temporary folder, as the process found it: $TMPDIR where it names a folder.
std::string temporary_base() {
  const char* tmpdir = std::getenv("TMPDIR");
  boost::system::error_code not_a_folder;
  return tmpdir != nullptr && *tmpdir != '\0' && boost::filesystem::is_directory(tmpdir, not_a_folder)
             ? tmpdir
             : "/tmp";
}

// The device nodes a GPU run opens for writing: the NVIDIA driver's (/dev/nvidia*, the capability
// nodes beneath /dev/nvidia-caps), shared memory, and the null, zero, full and random devices.
// Not /dev as a whole: a terminal (/dev/tty) is no plugin's to open.
std::vector<std::string> writable_devices() {
  std::vector<std::string> devices = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random",
                                      "/dev/urandom", "/dev/shm", "/dev/nvidia-caps"};
  boost::system::error_code none;
  for (boost::filesystem::directory_iterator entry("/dev", none), end; !none && entry != end;
       entry.increment(none)) {
    const std::string name = entry->path().filename().string();
    if (name.rfind("nvidia", 0) == 0) devices.push_back(entry->path().string());
  }
  return devices;
}

}  // namespace

// The places a GPU run writes to: its own temporary folder (not the shared ones, where a results
// file may lie), the device nodes, the caches of the CUDA driver (JIT-compiled kernels) and of
// libraries that keep theirs under ~/.cache. Not /proc: /proc/self/mem would write over the
// process's own code and relocation tables, whatever their protection.
std::vector<std::string> writable_folders(const std::string& temporary,
                                          const std::vector<std::string>& also) {
  std::vector<std::string> folders = writable_devices();
  folders.push_back(temporary);
  for (const auto& folder : also) {
    if (!folder.empty()) folders.push_back(folder);
  }
  for (const char* variable : {"CUDA_CACHE_PATH", "XDG_CACHE_HOME"}) {
    if (const char* value = std::getenv(variable); value != nullptr && *value != '\0') {
      folders.push_back(value);
    }
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    folders.push_back(std::string(home) + "/.nv");
    folders.push_back(std::string(home) + "/.cache");
  }
  return folders;
}

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error("cannot confine the plugin's process: " + what + ": " +
                           std::strerror(errno));
}

// The CUDA driver keeps the kernels it compiles in ~/.nv/ComputeCache (without CUDA_CACHE_PATH),
// making the folder on first use: inside the sandbox it could not make it in the home folder, so
// it is made before.
void make_cuda_cache_folder() {
  const char* home = std::getenv("HOME");
  if (std::getenv("CUDA_CACHE_PATH") != nullptr || home == nullptr || *home == '\0') return;
  ::mkdir((std::string(home) + "/.nv").c_str(), 0755);
}

// The process's own temporary folder, made afresh (a folder a process of the same pid left is
// removed), and TMPDIR pointing to it for the plugin's mkstemp and tmpfile.
std::string make_private_temporary_folder() {
  const std::string folder = private_temporary_folder(::getpid());
  remove_private_temporary_folder(::getpid());
  if (::mkdir(folder.c_str(), 0700) != 0) {
    // No room (no inodes, no space): kbench's own trouble, never the plugin's.
    if (storage_failure(errno)) {
      throw ShortOfResources("make its temporary folder " + folder, std::strerror(errno),
                             "free room there, or point TMPDIR elsewhere");
    }
    fail("mkdir " + folder);
  }
  ::setenv("TMPDIR", folder.c_str(), 1);
  return folder;
}

void restrict_writes(int abi, const std::string& temporary,
                     const std::vector<std::string>& also_writable) {
  std::uint64_t handled = kWriteAccess;
  if (abi >= 2) handled |= LANDLOCK_ACCESS_FS_REFER;  // renames and links across folders
  if (abi >= 3) handled |= kAccessTruncate;
  RulesetAttributes attributes{};
  attributes.handled_access_fs = handled;
  std::size_t size = sizeof(landlock_ruleset_attr);
  if (abi >= 6) {
    attributes.scoped = kScopeSignal;
    size = sizeof attributes;
  }
  const int ruleset =
      static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attributes, size, 0));
  if (ruleset < 0) fail("landlock_create_ruleset");
  for (const auto& folder : writable_folders(temporary, also_writable)) {
    // A place that does not exist (no ~/.nv yet) gets no rule: nothing beneath it can be made. A
    // device node gets the rights of a file: writing to it, no more.
    const int fd = ::open(folder.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat place {};
    const bool folder_itself = ::fstat(fd, &place) == 0 && S_ISDIR(place.st_mode);
    landlock_path_beneath_attr beneath{};
    beneath.allowed_access =
        folder_itself ? handled : handled & (LANDLOCK_ACCESS_FS_WRITE_FILE | kAccessTruncate);
    beneath.parent_fd = fd;
    const long added =
        ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
    ::close(fd);
    if (added != 0) fail("landlock_add_rule " + folder);
  }
  if (::syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) fail("landlock_restrict_self");
  ::close(ruleset);
}

void refuse_other_processes(const std::vector<pid_t>& also_protected) {
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
  if (filter == nullptr) fail("seccomp_init");
  const auto refuse = [&](int call, std::initializer_list<scmp_arg_cmp> only_when) {
    if (seccomp_rule_add_array(filter, SCMP_ACT_ERRNO(EPERM), call,
                               static_cast<unsigned>(only_when.size()), only_when.begin()) != 0) {
      seccomp_release(filter);
      fail("seccomp_rule_add");
    }
  };
  for (const int call : {SCMP_SYS(ptrace), SCMP_SYS(process_vm_writev), SCMP_SYS(process_vm_readv),
                         SCMP_SYS(pidfd_getfd), SCMP_SYS(setsid), SCMP_SYS(setpgid)}) {
    refuse(call, {});
  }
  // No signal to the kbench that started this process, to its process group, or to every process
  // (kill -1): a plugin that stops, ends or kills the parent loses the run's rows, and the parent
  // could say nothing. Its own children it may still signal. (Landlock ABI 6 scopes signals the
  // same way where the kernel has it; this holds on older kernels too.) A pid is an int: compared
  // on its low 32 bits, whatever the caller left in the register's upper half.
  const auto pid_is = [](pid_t pid) {
    return SCMP_A0(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, static_cast<std::uint32_t>(pid));
  };
  const pid_t parent = ::getppid();
  const pid_t parent_group = ::getpgid(parent);
  // The parent, and the processes it names (the referee, which leads a group of its own).
  std::vector<pid_t> protected_pids = {parent};
  protected_pids.insert(protected_pids.end(), also_protected.begin(), also_protected.end());
  for (const pid_t pid : protected_pids) {
    for (const int call : {SCMP_SYS(kill), SCMP_SYS(tgkill), SCMP_SYS(tkill),
                           SCMP_SYS(rt_sigqueueinfo), SCMP_SYS(rt_tgsigqueueinfo),
                           SCMP_SYS(pidfd_open)}) {
      refuse(call, {pid_is(pid)});
    }
  }
  for (const int call : {SCMP_SYS(kill), SCMP_SYS(rt_sigqueueinfo)}) {
    refuse(call, {pid_is(-1)});
    if (parent_group > 0) refuse(call, {pid_is(-parent_group)});
    for (const pid_t pid : also_protected) refuse(call, {pid_is(-pid)});
  }
  // Nor may it take the terminal: make its group the foreground one (Ctrl-C would no longer reach
  // kbench, and kbench's own writes would stop it), push input into it, or change its modes.
  for (const unsigned long request : {TIOCSPGRP, TIOCSTI, TIOCSCTTY, TIOCNOTTY, TIOCCONS, TIOCSETD,
                                      TIOCLINUX, TCSETS, TCSETSW, TCSETSF, TCSETA, TCSETAW,
                                      TCSETAF, TIOCSWINSZ}) {
    refuse(SCMP_SYS(ioctl), {SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, request)});
  }
  // Nor may it starve the parent (its priority, its scheduling class, its CPUs) or limit it (a file
  // size limit of 0 would end the run at its next row): the calls aimed at the parent's pid, its
  // group or every process of the user.
  for (const int call : {SCMP_SYS(sched_setscheduler), SCMP_SYS(sched_setparam),
                         SCMP_SYS(sched_setattr), SCMP_SYS(sched_setaffinity),
                         SCMP_SYS(prlimit64)}) {
    refuse(call, {pid_is(parent)});
  }
  const auto who_is = [](pid_t who) {
    return SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, static_cast<std::uint32_t>(who));
  };
  const auto which_is = [](int which) { return SCMP_A0(SCMP_CMP_EQ, which); };
  refuse(SCMP_SYS(setpriority), {which_is(PRIO_PROCESS), who_is(parent)});
  refuse(SCMP_SYS(setpriority), {which_is(PRIO_PGRP), who_is(parent_group)});
  refuse(SCMP_SYS(setpriority), {which_is(PRIO_USER)});
  refuse(SCMP_SYS(ioprio_set), {which_is(kIoprioWhoProcess), who_is(parent)});
  refuse(SCMP_SYS(ioprio_set), {which_is(kIoprioWhoProcessGroup), who_is(parent_group)});
  refuse(SCMP_SYS(ioprio_set), {which_is(kIoprioWhoUser)});
  const int loaded = seccomp_load(filter);
  seccomp_release(filter);
  if (loaded != 0) {
    errno = -loaded;
    fail("seccomp_load");
  }
}

// Out of memory, the kernel kills the process it scores highest: a plugin that allocates without
// end must be that process (its case becomes a row), not the kbench that writes the rows. A
// process may always raise its own score; its children inherit it.
void offer_to_the_oom_killer_first() {
  const int fd = ::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  [[maybe_unused]] const ssize_t written = ::write(fd, "1000", 4);
  ::close(fd);
}

}  // namespace

void check_room_for_private_temporary_folders() {
  const std::string base = temporary_base();
  std::string folder = base + "/kbench-room-XXXXXX";
  if (::mkdtemp(folder.data()) == nullptr) {
    if (storage_failure(errno)) {
      throw WriteError("cannot make a temporary folder in '" + base + "': " + std::strerror(errno) +
                       " (each plugin's process needs one: free room there, or point TMPDIR "
                       "elsewhere)");
    }
    return;  // another reason (no permission) is said by the child that makes its own
  }
  const std::string file = folder + "/byte";
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  const int error = fd < 0 || ::write(fd, "x", 1) != 1 ? errno : 0;
  if (fd >= 0) ::close(fd);
  ::unlink(file.c_str());
  ::rmdir(folder.c_str());
  if (error != 0 && storage_failure(error)) {
    throw WriteError("cannot write in the temporary folder '" + base + "': " +
                     std::strerror(error) + " (the plugins' processes write there: free room, " +
                     "or point TMPDIR elsewhere)");
  }
}

std::string private_temporary_folder(pid_t pid) {
  return temporary_base() + "/kbench-" + std::to_string(pid);
}

void remove_private_temporary_folder(pid_t pid) {
  boost::system::error_code ignored;
  boost::filesystem::remove_all(private_temporary_folder(pid), ignored);
}

std::string SandboxSupport::missing() const {
  if (disabled) return "the plugin sandbox is off (KBENCH_SANDBOX=off): plugins may write anywhere";
  if (landlock_abi > 0 && seccomp) return "";
  std::string what;
  if (landlock_abi == 0) what = "Landlock (plugins may write outside the temporary folders)";
  if (!seccomp) {
    what += std::string(what.empty() ? "" : " and ") + "seccomp (plugins may trace other processes)";
  }
  return "this kernel offers no " + what + "; the plugin sandbox applies only in part";
}

SandboxSupport sandbox_support() {
  SandboxSupport support;
  support.disabled = disabled();
  support.landlock_abi = landlock_abi();
  support.seccomp = seccomp_available();
  return support;
}

void enter_sandbox(const std::vector<std::string>& also_writable,
                   const std::vector<pid_t>& also_protected) {
  offer_to_the_oom_killer_first();
  const SandboxSupport support = sandbox_support();
  if (support.disabled) return;
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("PR_SET_NO_NEW_PRIVS");
  if (support.landlock_abi > 0) {
    make_cuda_cache_folder();
    restrict_writes(support.landlock_abi, make_private_temporary_folder(), also_writable);
  }
  if (support.seccomp) refuse_other_processes(also_protected);
}

}  // namespace kb
