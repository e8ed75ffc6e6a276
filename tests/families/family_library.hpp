// A family's referee as the runner uses it: its real library (build/lib/kbench/plugins/
// <family>_family.so, found through KBT_FAMILY_DIR), loaded with dlopen, and one case of it on host
// buffers (create(case, KB_DEVICE_HOST, ...)), driven through the C ABI of plugin.h alone. No GPU
// needed: on the host a family draws, poisons and checks on the host threads.
#pragma once

#include <kbench/plugin.h>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace kbtest {

// The family library `name` ("transpose"), loaded once per process and never unloaded (the runner
// keeps its libraries loaded for the worker's life too). Null, with an ADD_FAILURE naming why,
// when it cannot be loaded.
inline const KernelFamily* load_family(const std::string& name) {
  static std::map<std::string, const KernelFamily*> loaded;
  const auto found = loaded.find(name);
  if (found != loaded.end()) return found->second;
  const std::string file = std::string(KBT_FAMILY_DIR) + "/" + name + "_family.so";
  const KernelFamily* family = nullptr;
  if (void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    const auto entry = reinterpret_cast<kb_family_entry>(dlsym(handle, KB_FAMILY_ENTRY_SYMBOL));
    if (entry == nullptr) {
      ADD_FAILURE() << file << " exports no " << KB_FAMILY_ENTRY_SYMBOL;
    } else {
      family = entry();
    }
  } else {
    ADD_FAILURE() << "cannot load " << file << ": " << dlerror();
  }
  loaded[name] = family;
  return family;
}

inline kb_case make_case(kb_dtype dtype, std::int32_t rank, std::int64_t s0, std::int64_t s1 = 0,
                         std::int64_t s2 = 0, const char* op = "") {
  kb_case c{};
  c.dtype = dtype;
  c.op = op;
  c.rank = rank;
  c.shape[0] = s0, c.shape[1] = s1, c.shape[2] = s2;
  c.block[0] = 16, c.block[1] = rank > 1 ? 16 : 1, c.block[2] = 1;
  c.seed = 0;  // a version 3 case: the seed is the family's, passed to draw
  c.params = "";
  return c;
}

// The family's work for a case, or a failed expectation.
inline kb_work work_of(const KernelFamily& family, const kb_case& c) {
  kb_work work{-1.0, -1.0};
  kb_message message{};
  EXPECT_EQ(family.work(&c, &work, &message), KB_OK) << message.text;
  return work;
}

// Whether the family accepts the case (a family without accepts takes every case); the reason in
// `why` when it does not.
inline bool family_accepts(const KernelFamily& family, const kb_case& c, std::string* why = nullptr) {
  if (family.accepts == nullptr) return true;
  kb_message message{};
  const bool accepted = family.accepts(&c, &message) != 0;
  if (why != nullptr) *why = message.text;
  return accepted;
}

// Standard output as the referee process has it while a family judges: a file in memory, appended
// to, which the strategy's process writes its own standard output into (here, the test itself).
// The previous descriptor 1 is back when the object goes.
class OutputFile {
 public:
  OutputFile() {
    std::fflush(stdout);
    saved_ = ::dup(STDOUT_FILENO);
    const int file = ::memfd_create("kbtest-stdout", MFD_CLOEXEC);
    ::fcntl(file, F_SETFL, O_APPEND);
    ::dup2(file, STDOUT_FILENO);
    ::close(file);
  }
  ~OutputFile() {
    std::fflush(stdout);
    ::dup2(saved_, STDOUT_FILENO);
    ::close(saved_);
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

 private:
  int saved_ = -1;
};

// One case of a family, created on the host, destroyed with the object. `created` is create's
// status (the buffers are valid only when it is KB_OK).
class HostCase {
 public:
  HostCase(const KernelFamily& family, const kb_case& c) : family_(family) {
    created = family_.create(&c, KB_DEVICE_HOST, &state_, &buffers, &message);
  }
  ~HostCase() {
    if (created == KB_OK) family_.destroy(state_);
  }
  HostCase(const HostCase&) = delete;
  HostCase& operator=(const HostCase&) = delete;

  kb_status draw(std::uint64_t seed, std::uint32_t purpose = KB_DRAW_TIMED) {
    return family_.draw(state_, seed, purpose, nullptr, &message);
  }
  kb_status poison() { return family_.poison(state_, nullptr, &message); }
  // check's verdict; its status in `checked`.
  kb_verification check(std::uint32_t strategy_flags = 0) {
    kb_verification result{};
    checked = family_.check(state_, strategy_flags, nullptr, &result, &message);
    return result;
  }

  template <typename T>
  T* input(std::uint32_t i = 0) const {
    return static_cast<T*>(buffers.inputs[i].data);
  }
  template <typename T>
  T* output(std::uint32_t i = 0) const {
    return static_cast<T*>(buffers.outputs[i].data);
  }
  // The bytes of an operand, to compare draws of any element type.
  std::vector<unsigned char> input_bytes(std::uint32_t i = 0) const {
    const auto* data = static_cast<const unsigned char*>(buffers.inputs[i].data);
    return std::vector<unsigned char>(data, data + buffers.inputs[i].bytes);
  }
  std::vector<unsigned char> output_bytes(std::uint32_t i = 0) const {
    const auto* data = static_cast<const unsigned char*>(buffers.outputs[i].data);
    return std::vector<unsigned char>(data, data + buffers.outputs[i].bytes);
  }

  kb_status created = KB_ERROR;
  kb_status checked = KB_ERROR;
  kb_buffers buffers{};
  kb_message message{};

 private:
  const KernelFamily& family_;
  void* state_ = nullptr;
};

}  // namespace kbtest
