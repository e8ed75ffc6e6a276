#include "report/plot_stem.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>

namespace kb {
namespace {

std::string readable(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

// FNV-1a, 32 bits: eight hex digits tell the names of one report apart.
std::string hash_text(const std::string& text) {
  std::uint32_t hash = 2166136261u;
  for (unsigned char ch : text) hash = (hash ^ ch) * 16777619u;
  char digits[9];
  std::snprintf(digits, sizeof digits, "%08x", hash);
  return digits;
}

}  // namespace

std::string plot_stem(const std::string& kind, const std::string& name) {
  // One report per process: the stems it has handed out, each with the names that claimed it.
  static std::mutex mutex;
  static std::map<std::string, std::string> claimed;
  const std::string identity = kind + '\n' + name;
  std::string stem = readable(kind.empty() ? name : kind + "_" + name);
  const std::lock_guard<std::mutex> lock(mutex);
  const auto [it, fresh] = claimed.emplace(stem, identity);
  if (fresh || it->second == identity) return stem;
  stem += (stem.empty() ? "" : "_") + hash_text(identity);
  claimed.emplace(stem, identity);
  return stem;
}

}  // namespace kb
