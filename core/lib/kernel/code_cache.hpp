// Compiled kernel files on disk, so that a second run does not compile again: one entry per key
// (the source's hash, the options, the architecture, NVRTC's and the driver's versions), in
// $KBENCH_CACHE_DIR, else $XDG_CACHE_HOME/kbench/kernels, else ~/.cache/kbench/kernels. Entries
// are written whole or not at all (a temporary file renamed), so runs and lanes can share the
// folder; nothing is ever evicted (delete the folder to empty it).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kb {

// The folder: "" when no environment variable names a home for it.
std::string kernel_cache_dir();

// Makes the folder (and its parents) where it is missing; "" when it is there, otherwise why
// not. The runner calls it before it starts the probe and workers that compile kernel files:
// their sandbox lets them write beneath the folder, but cannot let them make it.
std::string make_kernel_cache_dir();

struct CachedCode {
  std::vector<std::string> entries;  // each launch's kernel symbol
  std::string ptx;       // the PTX the compiler wrote (NVRTC's); empty from nvcc
  std::string cubin;     // machine code; empty for a virtual architecture
  std::string compiler;  // how it was made, for the rows (kernel_compiler)
};

class CodeCache {
 public:
  explicit CodeCache(std::string dir) : dir_(std::move(dir)) {}
  const std::string& dir() const { return dir_; }

  std::optional<CachedCode> find(const std::string& key) const;
  // "" once stored; otherwise why not (the folder cannot be made or written).
  std::string store(const std::string& key, const CachedCode& code) const;

  // Which entry holds a variant's code: the compile step writes it once the code is stored, the
  // worker (which runs no compiler, so cannot know the compiler's version that is part of the
  // code's key) reads it. "" when there is none.
  std::string built(const std::string& variant_key) const;
  std::string mark_built(const std::string& variant_key, const std::string& key) const;

 private:
  std::string dir_;
};

}  // namespace kb
