#include "case/case_spec.hpp"

#include "util/input_error.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace kb {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// A non-negative decimal integer, all of `text`, below 2^63. Every value format_extent writes
// reads back, so the worker parses what the parent planned.
bool parse_integer(const std::string& text, std::int64_t& value) {
  const auto parsed = parse_unsigned(text);
  if (!parsed || *parsed > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return false;
  }
  value = static_cast<std::int64_t>(*parsed);
  return true;
}

// term := integer | integer '^' integer
bool parse_term(const std::string& text, std::int64_t& value) {
  const auto caret = text.find('^');
  if (caret == std::string::npos) return parse_integer(text, value);
  std::int64_t base = 0, exponent = 0;
  if (!parse_integer(text.substr(0, caret), base) ||
      !parse_integer(text.substr(caret + 1), exponent) || exponent > 62) {
    return false;
  }
  value = 1;
  for (std::int64_t i = 0; i < exponent; ++i) {
    if (__builtin_mul_overflow(value, base, &value)) return false;
  }
  return true;
}

// dimension := term (('+' | '-') term)*, e.g. "10^7+3"; false when any step overflows.
bool parse_dimension(const std::string& text, std::int64_t& value) {
  std::size_t start = 0;
  bool add = true;
  value = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '+' || text[i] == '-') {
      std::int64_t term = 0;
      if (!parse_term(text.substr(start, i - start), term)) return false;
      if (add ? __builtin_add_overflow(value, term, &value)
              : __builtin_sub_overflow(value, term, &value)) {
        return false;
      }
      if (i < text.size()) add = text[i] == '+';
      start = i + 1;
    }
  }
  return true;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

// "AxBxC" -> up to three positive dimensions.
std::vector<std::int64_t> parse_dims(const std::string& item, const char* what) {
  const auto parts = split(item, 'x');
  if (parts.size() > 3) {
    throw InputError(std::string("malformed ") + what + " '" + item + "': at most 3 dimensions");
  }
  std::vector<std::int64_t> dims;
  for (const auto& part : parts) {
    std::int64_t value = 0;
    if (!parse_dimension(part, value) || value <= 0) {
      throw InputError(std::string("malformed ") + what + " '" + item +
                       "': each dimension must be a positive integer below 2^63, like 4096, 2^20 "
                       "or 10^7+3");
    }
    dims.push_back(value);
  }
  return dims;
}

// The largest element count a shape may have: its elements times 8 bytes (the widest data
// type) still count in 64 bits, so no plugin or reference overflows computing its sizes.
constexpr std::int64_t kMaxElements = std::numeric_limits<std::int64_t>::max() / 8;

Extent checked_extent(const Extent& e, const std::string& text) {
  std::int64_t elements = 1;
  for (int i = 0; i < e.rank; ++i) {
    if (__builtin_mul_overflow(elements, e.dims[i], &elements) || elements > kMaxElements) {
      throw InputError("size '" + text + "' is too large: its element count times 8 bytes does "
                       "not fit in 64 bits");
    }
  }
  return e;
}

// Each item of a user's list parsed by `parse`; an empty list or an empty item is refused.
template <typename Parse>
auto parse_list(const std::string& list, const char* what, Parse parse) {
  std::vector<decltype(parse(std::string()))> values;
  for (const auto& item : split_user_list(list, what)) values.push_back(parse(item));
  return values;
}

}  // namespace

std::int64_t Block::threads() const {
  if (own()) return 0;
  return std::int64_t{dims[0]} * dims[1] * dims[2];
}

std::optional<std::uint64_t> parse_unsigned(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  for (char ch : text) {
    if (!std::isdigit(static_cast<unsigned char>(ch)) ||
        __builtin_mul_overflow(value, 10u, &value) ||
        __builtin_add_overflow(value, static_cast<unsigned>(ch - '0'), &value)) {
      return std::nullopt;
    }
  }
  return value;
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> items;
  for (const auto& raw : split(list, ',')) {
    const std::string item = trim(raw);
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

std::vector<std::string> split_user_list(const std::string& list, const char* what) {
  if (trim(list).empty()) throw InputError(std::string("empty ") + what + " list '" + list + "'");
  std::vector<std::string> items;
  for (const auto& raw : split(list, ',')) {
    items.push_back(trim(raw));
    if (items.back().empty()) {
      throw InputError(std::string("empty ") + what + " in the list '" + list + "'");
    }
  }
  return items;
}

std::vector<Extent> parse_sizes(const std::string& list) {
  return parse_list(
      list, "size",
      [](const std::string& item) {
        const auto dims = parse_dims(item, "size");
        Extent e;
        e.rank = static_cast<int>(dims.size());
        for (int i = 0; i < e.rank; ++i) e.dims[i] = dims[i];
        return checked_extent(e, item);
      });
}

std::vector<Block> parse_blocks(const std::string& list) {
  return parse_list(
      list, "block",
      [](const std::string& item) {
        const auto dims = parse_dims(item, "block");
        Block b;
        b.dims = {1, 1, 1};
        for (std::size_t i = 0; i < dims.size(); ++i) {
          if (dims[i] > kMaxBlockDims[i]) {
            throw InputError("block '" + item + "' exceeds the CUDA limit of " +
                             std::to_string(kMaxBlockDims[i]) + " threads in " + "xyz"[i]);
          }
          b.dims[i] = static_cast<std::int32_t>(dims[i]);
        }
        if (b.threads() > kMaxThreadsPerBlock) {
          throw InputError("block '" + item + "' has " + std::to_string(b.threads()) +
                           " threads; CUDA allows at most " + std::to_string(kMaxThreadsPerBlock));
        }
        return b;
      });
}

namespace {

// Every data type the ABI names: its canonical name in rows and on the command line, and the
// other spellings the command line takes.
struct DTypeName {
  kb_dtype dtype;
  const char* name;
  const char* aliases[3];
};
constexpr DTypeName kDTypeNames[] = {
    {KB_DTYPE_NONE, "none", {}},
    {KB_DTYPE_F32, "float32", {"f32", "float"}},
    {KB_DTYPE_F64, "float64", {"f64", "double"}},
    {KB_DTYPE_I32, "int32", {"i32", "int"}},
    {KB_DTYPE_F16, "float16", {"f16", "half"}},
    {KB_DTYPE_BF16, "bfloat16", {"bf16"}},
    {KB_DTYPE_I8, "int8", {"i8"}},
};

}  // namespace

std::vector<kb_dtype> parse_dtypes(const std::string& list) {
  const auto dtypes = parse_list(list, "data type", [](const std::string& item) {
    std::string known;
    for (const auto& d : kDTypeNames) {
      if (d.dtype == KB_DTYPE_NONE) continue;
      if (item == d.name) return d.dtype;
      for (const char* alias : d.aliases) {
        if (alias != nullptr && item == alias) return d.dtype;
      }
      known += (known.empty() ? "" : ", ") + std::string(d.name);
    }
    throw InputError("unknown data type '" + item + "' (known: " + known + ")");
  });
  for (std::size_t i = 0; i < dtypes.size(); ++i) {
    if (std::count(dtypes.begin(), dtypes.begin() + i, dtypes[i])) {
      throw InputError(std::string("data type ") + dtype_name(dtypes[i]) + " given twice in '" +
                       list + "'");
    }
  }
  return dtypes;
}

Extent broadcast(const Extent& size, int family_rank) {
  if (size.rank == family_rank) return size;
  if (size.rank == 1) {
    Extent e;
    e.rank = family_rank;
    for (int i = 0; i < family_rank; ++i) e.dims[i] = size.dims[0];
    return checked_extent(e, format_extent(size));
  }
  throw InputError("size '" + format_extent(size) + "' has " + std::to_string(size.rank) +
                   " dimensions; this family takes " + std::to_string(family_rank) + " (or 1)");
}

std::string format_extent(const Extent& e) {
  std::string text;
  for (int i = 0; i < e.rank; ++i) text += (i ? "x" : "") + std::to_string(e.dims[i]);
  return text;
}

std::string format_block(const Block& b) {
  if (b.own()) return "-";
  int rank = 3;
  while (rank > 1 && b.dims[rank - 1] == 1) --rank;
  std::string text;
  for (int i = 0; i < rank; ++i) text += (i ? "x" : "") + std::to_string(b.dims[i]);
  return text;
}

std::string format_dims(const std::uint32_t (&dims)[3]) {
  if (dims[0] == 0) return "-";
  Block b;
  for (int i = 0; i < 3; ++i) b.dims[i] = static_cast<std::int32_t>(dims[i]);
  return format_block(b);
}

std::size_t dtype_bytes(kb_dtype dtype) {
  switch (dtype) {
    case KB_DTYPE_F64:
    case KB_DTYPE_I64: return 8;
    case KB_DTYPE_F32:
    case KB_DTYPE_I32: return 4;
    case KB_DTYPE_F16:
    case KB_DTYPE_BF16: return 2;
    case KB_DTYPE_I8: return 1;
    default: return 0;
  }
}

const char* dtype_name(kb_dtype dtype) {
  for (const auto& d : kDTypeNames) {
    if (d.dtype == dtype) return d.name;
  }
  return "unknown";
}

std::string dtype_list(std::uint32_t mask) {
  std::string text;
  for (const auto& d : kDTypeNames) {
    if (mask & d.dtype) text += (text.empty() ? "" : ",") + std::string(d.name);
  }
  return text;
}

}  // namespace kb
