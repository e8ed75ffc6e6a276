// The worker's own code and tables out of the strategy's reach, after the strategy is loaded. The
// strategy is native code in the process that times it: it could rewrite a relocation slot on the
// clock's path (cudaEventElapsedTime's, made writable again by mprotect, or replaced by a page
// mapped over it) and scale every sample, or patch the code itself. Once sealed, where the kernel
// has seccomp:
// - no mapping becomes executable: mmap, mprotect and pkey_mprotect with PROT_EXEC, shmat with
//   SHM_EXEC and personality(READ_IMPLIES_EXEC) fail with EPERM, so no code page can be rewritten
//   and run again, and no library can be loaded (everything the worker needs is loaded before:
//   the strategy's libraries with it, CUDA, CUPTI and the PTX JIT compiler);
// - the relocation tables (PT_GNU_RELRO: the GOT, vtables, the loader's own tables) of every image
//   on the clock's path (the kbench executable, the C and C++ runtimes, the dynamic loader, the
//   CUDA runtime and driver, CUPTI) cannot be made writable, unmapped, moved or mapped over:
//   mprotect, pkey_mprotect, mmap, munmap and mremap aimed at them fail with EPERM;
// - and their digests, taken when sealed, are compared after each case: a change (a way the rules
//   did not foresee) makes the case's row an error naming the image.
// Writes through /proc/self/mem are the sandbox's to refuse (sandbox.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kb {

class CodeSeal {
 public:
  // Seals the calling process for good (a no-op where seccomp is missing or the sandbox is off:
  // the digests are still compared). A runtime_error when a rule cannot be applied.
  static CodeSeal apply();

  // The first relocation table that changed since the seal ("libcudart.so.13: relocation table
  // changed at offset 0x1f0"), nothing when none did.
  std::optional<std::string> tampered() const;

  // The images sealed, for a test: their file names.
  std::vector<std::string> images() const;

 private:
  struct Table {
    std::string image;
    std::uintptr_t start = 0, end = 0;
    std::vector<unsigned char> bytes;  // as sealed
  };
  std::vector<Table> tables_;
};

}  // namespace kb
