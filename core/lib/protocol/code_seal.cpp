#include "protocol/code_seal.hpp"

#include "protocol/sandbox.hpp"

#include <link.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace kb {
namespace {

// The images whose relocation tables the clock's path goes through: the executable (its name is
// empty in the loader's list), the dynamic loader, the C and C++ runtimes, CUDA and CUPTI.
bool on_the_clock_path(const std::string& name) {
  if (name.empty()) return true;
  const std::string file = name.substr(name.rfind('/') + 1);
  for (const char* prefix : {"ld-linux", "libc.so", "libstdc++.so", "libgcc_s.so", "libcudart.so",
                             "libcuda.so", "libcupti.so"}) {
    if (file.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

struct Range {
  std::string image;
  std::uintptr_t start, end;
};

// Each image's PT_GNU_RELRO, as the loader protected it: from its first page to the last whole one.
std::vector<Range> relocation_tables() {
  std::vector<Range> found;
  std::pair<std::vector<Range>*, std::uintptr_t> context{
      &found, static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE))};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto& [ranges, page_size] = *static_cast<std::pair<std::vector<Range>*, std::uintptr_t>*>(data);
        const std::string name = info->dlpi_name != nullptr ? info->dlpi_name : "";
        if (!on_the_clock_path(name)) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_GNU_RELRO) continue;
          const std::uintptr_t start = (info->dlpi_addr + segment.p_vaddr) & ~(page_size - 1);
          const std::uintptr_t end =
              (info->dlpi_addr + segment.p_vaddr + segment.p_memsz) & ~(page_size - 1);
          if (end > start) ranges->push_back({name.empty() ? "the kbench executable" : name, start, end});
        }
        return 0;
      },
      &context);
  return found;
}

// [start, end) as aligned power-of-two blocks (base, size): each one seccomp's masked compare.
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> aligned_blocks(std::uintptr_t start,
                                                                      std::uintptr_t end) {
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> blocks;
  while (start < end) {
    std::uintptr_t size = start & (~start + 1);  // the largest power of two dividing start
    if (size == 0) size = std::uintptr_t{1} << 62;
    while (start + size > end) size >>= 1;
    blocks.emplace_back(start, size);
    start += size;
  }
  return blocks;
}

[[noreturn]] void fail(const std::string& what, int error) {
  throw std::runtime_error("cannot seal the worker's code: " + what + ": " + std::strerror(error));
}

void add(scmp_filter_ctx filter, int call, scmp_arg_cmp compare) {
  if (const int added = seccomp_rule_add_array(filter, SCMP_ACT_ERRNO(EPERM), call, 1, &compare);
      added != 0) {
    seccomp_release(filter);
    fail("seccomp_rule_add", -added);
  }
}

void load_rules(const std::vector<Range>& tables) {
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
  if (filter == nullptr) fail("seccomp_init", ENOMEM);
  seccomp_attr_set(filter, SCMP_FLTATR_CTL_OPTIMIZE, 2);
  const auto has_exec = [](unsigned arg, std::uint64_t bit) {
    return scmp_arg_cmp{arg, SCMP_CMP_MASKED_EQ, bit, bit};
  };
  for (const int call : {SCMP_SYS(mmap), SCMP_SYS(mprotect), SCMP_SYS(pkey_mprotect)}) {
    add(filter, call, has_exec(2, PROT_EXEC));
  }
  add(filter, SCMP_SYS(shmat), has_exec(2, SHM_EXEC));
  if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), 0) != 0) {
    seccomp_release(filter);
    fail("seccomp_rule_add", EINVAL);
  }
  for (const Range& table : tables) {
    for (const auto& [base, size] : aligned_blocks(table.start, table.end)) {
      const scmp_arg_cmp at{0, SCMP_CMP_MASKED_EQ, ~(std::uint64_t{size} - 1), base};
      for (const int call : {SCMP_SYS(mmap), SCMP_SYS(mprotect), SCMP_SYS(pkey_mprotect),
                             SCMP_SYS(munmap), SCMP_SYS(mremap)}) {
        add(filter, call, at);
      }
      add(filter, SCMP_SYS(mremap), scmp_arg_cmp{4, SCMP_CMP_MASKED_EQ, ~(std::uint64_t{size} - 1), base});
    }
  }
  const int loaded = seccomp_load(filter);
  seccomp_release(filter);
  if (loaded != 0) fail("seccomp_load", -loaded);
}

}  // namespace

CodeSeal CodeSeal::apply() {
  CodeSeal seal;
  const std::vector<Range> tables = relocation_tables();
  for (const Range& range : tables) {
    Table table{range.image, range.start, range.end, {}};
    table.bytes.assign(reinterpret_cast<const unsigned char*>(range.start),
                       reinterpret_cast<const unsigned char*>(range.end));
    seal.tables_.push_back(std::move(table));
  }
  const SandboxSupport support = sandbox_support();
  if (!support.disabled && support.seccomp) load_rules(tables);
  return seal;
}

std::optional<std::string> CodeSeal::tampered() const {
  for (const Table& table : tables_) {
    const auto* now = reinterpret_cast<const unsigned char*>(table.start);
    if (std::memcmp(now, table.bytes.data(), table.bytes.size()) == 0) continue;
    for (std::size_t i = 0; i < table.bytes.size(); ++i) {
      if (now[i] == table.bytes[i]) continue;
      char offset[32];
      std::snprintf(offset, sizeof offset, "0x%zx", i);
      return table.image + ": its relocation table changed at offset " + offset;
    }
  }
  return std::nullopt;
}

std::vector<std::string> CodeSeal::images() const {
  std::vector<std::string> names;
  for (const Table& table : tables_) names.push_back(table.image);
  return names;
}

}  // namespace kb
