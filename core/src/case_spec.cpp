#include "case_spec.hpp"

#include "input_error.hpp"

#include <cctype>
#include <limits>

namespace kb {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// A non-negative decimal integer, all of `text`; false on anything else or overflow.
bool parse_integer(const std::string& text, std::int64_t& value) {
  if (text.empty() || text.size() > 18) return false;
  value = 0;
  for (char ch : text) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
    value = value * 10 + (ch - '0');
  }
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
    if (base != 0 && value > std::numeric_limits<std::int64_t>::max() / base) return false;
    value *= base;
  }
  return true;
}

// dimension := term (('+' | '-') term)*, e.g. "10^7+3"
bool parse_dimension(const std::string& text, std::int64_t& value) {
  std::size_t start = 0;
  int sign = 1;
  value = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '+' || text[i] == '-') {
      std::int64_t term = 0;
      if (!parse_term(text.substr(start, i - start), term)) return false;
      value += sign * term;
      if (i < text.size()) sign = text[i] == '+' ? 1 : -1;
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
                       "': each dimension must be a positive integer, like 4096, 2^20 or 10^7+3");
    }
    dims.push_back(value);
  }
  return dims;
}

}  // namespace

std::int64_t Block::threads() const {
  if (own()) return 0;
  return std::int64_t{dims[0]} * dims[1] * dims[2];
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> items;
  for (const auto& raw : split(list, ',')) {
    const std::string item = trim(raw);
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

std::vector<Extent> parse_sizes(const std::string& list) {
  std::vector<Extent> sizes;
  for (const auto& item : split_list(list)) {
    const auto dims = parse_dims(item, "size");
    Extent e;
    e.rank = static_cast<int>(dims.size());
    for (int i = 0; i < e.rank; ++i) e.dims[i] = dims[i];
    sizes.push_back(e);
  }
  if (sizes.empty()) throw InputError("empty size list '" + list + "'");
  return sizes;
}

std::vector<Block> parse_blocks(const std::string& list) {
  std::vector<Block> blocks;
  for (const auto& item : split_list(list)) {
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
    blocks.push_back(b);
  }
  if (blocks.empty()) throw InputError("empty block list '" + list + "'");
  return blocks;
}

std::vector<kb_dtype> parse_dtypes(const std::string& list) {
  std::vector<kb_dtype> dtypes;
  for (const auto& item : split_list(list)) {
    if (item == "float32" || item == "f32" || item == "float") {
      dtypes.push_back(KB_DTYPE_F32);
    } else if (item == "float64" || item == "f64" || item == "double") {
      dtypes.push_back(KB_DTYPE_F64);
    } else if (item == "int32" || item == "i32" || item == "int") {
      dtypes.push_back(KB_DTYPE_I32);
    } else {
      throw InputError("unknown data type '" + item + "' (known: float32, float64, int32)");
    }
  }
  if (dtypes.empty()) throw InputError("empty data type list '" + list + "'");
  return dtypes;
}

Extent broadcast(const Extent& size, int family_rank) {
  if (size.rank == family_rank) return size;
  if (size.rank == 1) {
    Extent e;
    e.rank = family_rank;
    for (int i = 0; i < family_rank; ++i) e.dims[i] = size.dims[0];
    return e;
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

const char* dtype_name(kb_dtype dtype) {
  switch (dtype) {
    case KB_DTYPE_F32: return "float32";
    case KB_DTYPE_F64: return "float64";
    case KB_DTYPE_I32: return "int32";
    case KB_DTYPE_NONE: return "none";
  }
  return "unknown";
}

std::string dtype_list(std::uint32_t mask) {
  std::string text;
  for (kb_dtype d : {KB_DTYPE_NONE, KB_DTYPE_F32, KB_DTYPE_F64, KB_DTYPE_I32}) {
    if (mask & d) text += (text.empty() ? "" : ",") + std::string(dtype_name(d));
  }
  return text;
}

}  // namespace kb
