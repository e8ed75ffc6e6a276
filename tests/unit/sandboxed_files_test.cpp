// What a family or a support helper does with files must work inside the sandbox the children
// that run plugin code are confined in: writes only beneath the process's own temporary folder.
// The hello family captured standard output with std::tmpfile(), which opens in /tmp whatever
// TMPDIR says, and every hello case became an error on a GPU while every host test passed. Here
// the capture runs in a child that entered the real sandbox, without a GPU, reading what another
// process printed into the shared output file, as the referee reads the worker's.
#include "protocol/sandbox.hpp"

#include <kbench/families/hello.hpp>

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

namespace {

// `body` in a forked child confined as a referee or a worker is, its standard output a file in
// memory (appended to) as the worker's is; what `body` returns (or the exception's words), read
// back through a pipe.
std::string inside_the_sandbox(const std::function<std::string()>& body) {
  int channel[2];
  if (::pipe(channel) != 0) return "pipe failed";
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(channel[0]);
    std::string answer;
    try {
      const int output = ::memfd_create("kbench-test-stdout", 0);
      ::fcntl(output, F_SETFL, O_APPEND);
      ::dup2(output, STDOUT_FILENO);
      kb::enter_sandbox();
      answer = body();
    } catch (const std::exception& e) {
      answer = std::string("threw: ") + e.what();
    }
    const ssize_t written = ::write(channel[1], answer.data(), answer.size());
    ::_exit(written == static_cast<ssize_t>(answer.size()) ? 0 : 1);
  }
  ::close(channel[1]);
  std::string answer;
  char chunk[4096];
  ssize_t got = 0;
  while ((got = ::read(channel[0], chunk, sizeof chunk)) > 0) answer.append(chunk, got);
  ::close(channel[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  kb::remove_private_temporary_folder(child);
  return answer;
}

// A line printed by another process sharing the output file, as the worker prints for the referee.
void printed_by_another_process(const char* line) {
  std::fflush(stdout);
  const pid_t printer = ::fork();
  if (printer == 0) {
    const ssize_t written = ::write(STDOUT_FILENO, line, std::strlen(line));
    ::_exit(written < 0 ? 1 : 0);
  }
  int status = 0;
  ::waitpid(printer, &status, 0);
}

class SandboxedFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const kb::SandboxSupport support = kb::sandbox_support();
    if (!support.missing().empty()) GTEST_SKIP() << support.missing();
  }
};

TEST_F(SandboxedFiles, TheHelloFamilyCapturesWhatTheStrategysProcessPrinted) {
  const std::string captured = inside_the_sandbox([] {
    kb::hello::StdoutCapture capture;
    capture.begin();
    printed_by_another_process("Hello World from Thread (0, 0) in Block 0!\n");
    return capture.end();
  });
  EXPECT_EQ(captured, "Hello World from Thread (0, 0) in Block 0!\n");
}

TEST_F(SandboxedFiles, ASecondCaptureHoldsOnlyWhatFollowedItsBeginning) {
  const std::string captured = inside_the_sandbox([] {
    kb::hello::StdoutCapture capture;
    capture.begin();
    printed_by_another_process("first launch\n");
    capture.begin();  // a second poison starts over
    printed_by_another_process("second launch\n");
    return capture.end();
  });
  EXPECT_EQ(captured, "second launch\n");
}

// The control: the sandbox refuses what the capture used to do, so the tests above are tests of
// the sandbox too, not of an unconfined child.
TEST_F(SandboxedFiles, TheSharedTemporaryFolderIsOutOfReachThere) {
  const std::string answer = inside_the_sandbox([] {
    std::FILE* file = std::tmpfile();
    if (file != nullptr) std::fclose(file);
    return std::string(file == nullptr ? "refused" : "created");
  });
  EXPECT_EQ(answer, "refused");
}

}  // namespace
