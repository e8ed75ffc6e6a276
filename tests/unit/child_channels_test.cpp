// What a process that runs plugin code holds of its channels, and of its own code, once sealed.
// A request channel that was a pipe could be opened again for writing through /proc/self/fd, and
// a plugin fed its own worker a case of its choosing; the relocation tables of the worker could be
// made writable again, and a strategy pointed the clock's slot to a clock of its own.
#include "protocol/code_seal.hpp"
#include "protocol/packet_channel.hpp"
#include "protocol/sandbox.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <string>

namespace {

// `body` in a forked child; what it returns, read back through a pipe.
std::string in_a_child(const std::function<std::string()>& body) {
  int channel[2];
  if (::pipe(channel) != 0) return "pipe failed";
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(channel[0]);
    std::string answer;
    try {
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
  return answer;
}

TEST(PacketChannel, CarriesWholeRecordsAndDescriptors) {
  auto [one, other] = kb::PacketChannel::pair();
  const int memory = ::memfd_create("kbtest-operand", MFD_CLOEXEC);
  ASSERT_GE(memory, 0);
  ASSERT_EQ(::write(memory, "shared", 6), 6);
  ASSERT_TRUE(one.send("operands", {{"count", "6"}, {"note", "a\ttab\nand a line"}}, {memory}));
  ::close(memory);
  std::string kind;
  kb::Record fields;
  std::vector<kb::OwnedFd> fds;
  ASSERT_EQ(other.receive(kind, fields, fds, 1000), kb::PacketChannel::Status::record);
  EXPECT_EQ(kind, "operands");
  EXPECT_EQ(fields["note"], "a\ttab\nand a line");
  ASSERT_EQ(fds.size(), 1u);
  char text[6];
  EXPECT_EQ(::pread(fds[0].get(), text, sizeof text, 0), 6);
  EXPECT_EQ(std::string(text, 6), "shared");
  EXPECT_EQ(other.receive(kind, fields, fds, 10), kb::PacketChannel::Status::timeout);
  one = kb::PacketChannel();
  EXPECT_EQ(other.receive(kind, fields, fds, 1000), kb::PacketChannel::Status::ended);
}

TEST(PacketChannel, CannotBeOpenedAgainThroughProc) {
  auto [one, other] = kb::PacketChannel::pair();
  const std::string path = "/proc/self/fd/" + std::to_string(one.fd());
  errno = 0;
  const int again = ::open(path.c_str(), O_RDWR);
  EXPECT_LT(again, 0);
  EXPECT_EQ(errno, ENXIO) << std::strerror(errno);
  if (again >= 0) ::close(again);
}

// The first relocation table of the executable, where the clock's slots live.
std::uintptr_t a_sealed_page() {
  std::uintptr_t page = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* found) {
        if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
            *static_cast<std::uintptr_t*>(found) =
                (info->dlpi_addr + info->dlpi_phdr[i].p_vaddr) & ~std::uintptr_t{4095};
            return 1;
          }
        }
        return 0;
      },
      &page);
  return page;
}

TEST(CodeSeal, NoCodeChangesAndNoRelocationTableMovesOnceSealed) {
  const kb::SandboxSupport support = kb::sandbox_support();
  if (!support.seccomp || support.disabled) GTEST_SKIP() << "no seccomp here: " << support.missing();
  const std::string answer = in_a_child([] {
    const std::uintptr_t page = a_sealed_page();
    if (page == 0) return std::string("no relocation table");
    const kb::CodeSeal seal = kb::CodeSeal::apply();
    std::string said;
    const auto outcome = [&](const char* what, bool done) {
      said += std::string(what) + ": " + (done ? "done" : std::strerror(errno)) + "; ";
    };
    void* table = reinterpret_cast<void*>(page);
    outcome("writable", ::mprotect(table, 4096, PROT_READ | PROT_WRITE) == 0);
    outcome("mapped over", ::mmap(table, 4096, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED);
    outcome("unmapped", ::munmap(table, 4096) == 0);
    void* code = ::mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    outcome("new code", code != MAP_FAILED);
    void* data = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    outcome("data", data != MAP_FAILED);
    outcome("data made code", data != MAP_FAILED && ::mprotect(data, 4096, PROT_READ | PROT_EXEC) == 0);
    outcome("data made read-only", data != MAP_FAILED && ::mprotect(data, 4096, PROT_READ) == 0);
    said += seal.tampered() ? "tampered" : "intact";
    return said;
  });
  EXPECT_EQ(answer,
            "writable: Operation not permitted; mapped over: Operation not permitted; unmapped: "
            "Operation not permitted; new code: Operation not permitted; data: done; data made "
            "code: Operation not permitted; data made read-only: done; intact");
}

TEST(CodeSeal, SealsTheImagesOnTheClocksPath) {
  const std::string images = in_a_child([] {
    std::string names;
    for (const std::string& image : kb::CodeSeal::apply().images()) names += image + "\n";
    return names;
  });
  EXPECT_NE(images.find("the kbench executable"), std::string::npos) << images;
  EXPECT_NE(images.find("libc.so"), std::string::npos) << images;
  EXPECT_NE(images.find("libstdc++.so"), std::string::npos) << images;
}

}  // namespace
