// The pieces of a case as the user writes them: sizes ("8192x4096", "2^20", "10^7+3"), block
// shapes ("32x8"), data types ("float32") and their canonical text in the results.
#pragma once

#include <kbench/plugin.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kb {

struct Extent {
  int rank = 0;
  std::array<std::int64_t, 3> dims{0, 0, 0};
};

struct Block {
  std::array<std::int32_t, 3> dims{0, 0, 0};  // all zero: the plugin chooses its own
  bool own() const { return dims[0] == 0; }
  std::int64_t threads() const;
};

// CUDA's per-block limits, the same on every architecture since compute capability 2.0.
constexpr std::int64_t kMaxThreadsPerBlock = 1024;
constexpr std::array<std::int32_t, 3> kMaxBlockDims{1024, 1024, 64};

// Each parser takes a comma-separated list and throws InputError naming the bad element: a
// malformed or out-of-range value, an empty item, a data type given twice. (Sizes and blocks may
// repeat: --zip pairs them by position; plan_sweep refuses a case asked for twice.) A size's
// element count times 8 bytes must fit in 64 bits. The worker parses the parent's cases with the
// same rules.
std::vector<Extent> parse_sizes(const std::string& list);
std::vector<Block> parse_blocks(const std::string& list);
std::vector<kb_dtype> parse_dtypes(const std::string& list);
// The trimmed items of a user's list ("what": "operation", "device"...); an empty list or an
// empty item is an InputError.
std::vector<std::string> split_user_list(const std::string& list, const char* what);
// The non-empty trimmed items of a list kbench or a plugin wrote (a plugin's ops, samples).
std::vector<std::string> split_list(const std::string& list);

// A decimal number of digits alone ("42"; no sign, no space), when it fits in 64 bits.
std::optional<std::uint64_t> parse_unsigned(const std::string& text);

// A one-number size means a square (cube) problem; otherwise the rank must match the family's.
Extent broadcast(const Extent& size, int family_rank);

std::string format_extent(const Extent& e);       // "8192x4096"
std::string format_block(const Block& b);         // "32x8", "256", "-" for the plugin's own
std::string format_dims(const std::uint32_t (&dims)[3]);  // "256x256" (trailing 1s dropped)
const char* dtype_name(kb_dtype dtype);           // "float32", "float64", "int32", "none"
std::size_t dtype_bytes(kb_dtype dtype);         // one element's: 4 for float32; 0 for none
std::string dtype_list(std::uint32_t mask);       // "float32,float64"

}  // namespace kb
