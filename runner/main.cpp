// kbench: registry and runner for CUDA kernel experiments.
#include "child/child_commands.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "util/input_error.hpp"
#include "util/terminal_text.hpp"
#include "util/write_error.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <boost/filesystem/exception.hpp>

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

namespace {

// The parent never dies without a line: a fault of kbench itself says so, then ends as it would
// have. (Not in the worker and probe children: there a crash is the plugin's, and the parent
// reports it.)
void on_fault(int sig) {
  const char* what = strsignal(sig);
  const char* lines[] = {"kbench: internal error: ", what ? what : "a fatal signal",
                         " (a fault of kbench itself)\n"};
  for (const char* line : lines) {
    [[maybe_unused]] const ssize_t written = ::write(2, line, std::strlen(line));
  }
  ::raise(sig);  // SA_RESETHAND: the default action, a core dump where enabled
}

// A descriptor 0, 1 or 2 that was closed (`>&-`, a daemon's start) would be the next file kbench
// opens, and the table or the progress lines meant for the terminal would land in the results
// CSV. Opened on /dev/null first, they keep every file kbench opens above them.
void hold_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int opened = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (opened != fd) {
      // open() returns the lowest free descriptor, which is fd: anything else means none is left.
      const char line[] =
          "kbench: internal error: cannot open /dev/null for a closed standard descriptor\n";
      [[maybe_unused]] const ssize_t written = ::write(2, line, sizeof line - 1);
      _exit(kb::kExitInternal);
    }
  }
}

void say_why_on_fault() {
  struct sigaction action {};
  action.sa_handler = on_fault;
  action.sa_flags = SA_RESETHAND;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &action, nullptr);
}

constexpr const char* kUsage =
    "Usage: kbench <command> [options]\n"
    "\n"
    "Commands:\n"
    "  list     the plugins found and what they support\n"
    "  run      run a sweep and append the results to a CSV file\n"
    "  tune     search a plugin's blocks and parameters for each shape's fastest configuration\n"
    "  compare  the medians of the same cases side by side across GPUs, runs or plugins\n"
    "  report   a markdown report with PNG plots (gnuplot) from results CSV files\n"
    "  upgrade  add this kbench's new columns to results files an older kbench wrote\n"
    "  validate check a plugin file: ABI, metadata, and a small verified case of each dtype\n"
    "  new-plugin  write a plugin project that builds out of tree against an installed kbench\n"
    "\n"
    "kbench <command> --help shows the command's options.\n";

int command_of(const std::string& command, const std::vector<std::string>& args) {
  if (command == "list") return kb::list_command(args);
  if (command == "run") return kb::run_command(args);
  if (command == "tune") return kb::tune_command(args);
  if (command == "compare") return kb::compare_command(args);
  if (command == "report") return kb::report_command(args);
  if (command == "worker") return kb::worker_command(args);
  if (command == "probe") return kb::probe_command(args);
  if (command == "referee") return kb::referee_command(args);
  if (command == "compile") return kb::compile_command(args);
  if (command == "validate") return kb::validate_command(args);
  if (command == "new-plugin") return kb::new_plugin_command(args);
  if (command == "upgrade") return kb::upgrade_command(args);
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  std::cerr << "kbench: error: unknown command '" << command << "'\n" << kUsage;
  return kb::kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  hold_standard_descriptors();
  // Past a file-size limit (`ulimit -f`) a write fails with EFBIG and takes the write-error path
  // (the partial row undone, one line, exit 4) instead of SIGXFSZ ending kbench without a word.
  signal(SIGXFSZ, SIG_IGN);
  // A write to a child that has ended (a probe or worker a plugin ended, gnuplot) fails with
  // EPIPE and is seen as that child's end, instead of SIGPIPE ending kbench without a line; a
  // reader of standard output that stopped reading (`| head`) ends the output the same way.
  signal(SIGPIPE, SIG_IGN);
  if (argc < 2) {
    std::cerr << kUsage;
    return kb::kExitBadInput;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (command != "worker" && command != "probe" && command != "referee" && command != "compile") {
    say_why_on_fault();
  }
  // Every line kbench writes to standard error shows what people and files gave it visibly: a
  // carriage return, an escape sequence or a byte-order mark in a value is written as its escape.
  // Never destroyed: std::cerr is flushed after every static object is gone.
  std::cerr.rdbuf(new kb::TerminalFilter(std::cerr.rdbuf()));
  try {
    const int code = command_of(command, args);
    // A table or a comparison redirected to a full disk is a failed write, not a success; a reader
    // that stopped reading (`| head`) is not.
    errno = 0;
    if (!std::cout.flush() && errno != EPIPE) {
      // The reason is known when this flush failed; an earlier write's errno is gone.
      std::cerr << "kbench: cannot write standard output"
                << (errno != 0 ? std::string(": ") + std::strerror(errno) : "") << "\n";
      return kb::kExitWriteFailed;
    }
    return code;
  } catch (const kb::InputError& e) {
    // One line, whatever the value it names holds.
    std::cerr << "kbench: error: " << kb::terminal_text(e.what()) << "\n";
    return kb::kExitBadInput;
  } catch (const kb::WriteError& e) {
    std::cerr << "kbench: " << kb::terminal_text(e.what()) << "\n";
    return kb::kExitWriteFailed;
  } catch (const boost::filesystem::filesystem_error& e) {
    // A path given that the system refuses (a loop of symbolic links, a name too long, a file
    // where a folder must be) is bad input; a full disk is a failed write.
    const std::string line = "cannot use '" + e.path1().string() + "': " + e.code().message();
    if (kb::storage_failure(e.code().value())) {
      std::cerr << "kbench: " << kb::terminal_text(line) << "\n";
      return kb::kExitWriteFailed;
    }
    std::cerr << "kbench: error: " << kb::terminal_text(line) << "\n";
    return kb::kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::cerr << "kbench: internal error: out of memory\n";
    return kb::kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "kbench: internal error: " << kb::terminal_text(e.what()) << "\n";
    return kb::kExitInternal;
  } catch (...) {
    std::cerr << "kbench: internal error: unknown exception\n";
    return kb::kExitInternal;
  }
}
