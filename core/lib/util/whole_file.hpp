// A whole file's bytes, read at once: kernel sources and manifests, cached code, a tool's logs.
#pragma once

#include <fstream>
#include <iterator>
#include <optional>
#include <string>

namespace kb {

// The bytes of `path`, or nothing when it cannot be opened.
inline std::optional<std::string> read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace kb
