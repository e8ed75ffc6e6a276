#include "kernel/code_cache.hpp"

#include "util/whole_file.hpp"

#include <boost/filesystem/operations.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

namespace kb {
namespace fs = boost::filesystem;

namespace {

// Writes `bytes` under a name of this process's, then renames it into place.
bool write_whole(const fs::path& file, const std::string& bytes) {
  const fs::path temporary =
      file.parent_path() / (file.filename().string() + ".tmp" + std::to_string(getpid()));
  {
    std::ofstream out(temporary.string(), std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) {
      out.close();
      boost::system::error_code ignored;
      fs::remove(temporary, ignored);
      return false;
    }
  }
  boost::system::error_code error;
  fs::rename(temporary, file, error);
  return !error;
}

}  // namespace

std::string kernel_cache_dir() {
  if (const char* dir = std::getenv("KBENCH_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return (fs::path(xdg) / "kbench" / "kernels").string();
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return (fs::path(home) / ".cache" / "kbench" / "kernels").string();
  }
  return "";
}

std::string make_kernel_cache_dir() {
  const std::string dir = kernel_cache_dir();
  if (dir.empty()) return "no cache folder (set KBENCH_CACHE_DIR, XDG_CACHE_HOME or HOME)";
  boost::system::error_code error;
  fs::create_directories(dir, error);
  if (error) return "cannot make the cache folder " + dir + ": " + error.message();
  return "";
}

std::optional<CachedCode> CodeCache::find(const std::string& key) const {
  if (dir_.empty()) return std::nullopt;
  const fs::path base = fs::path(dir_) / key;
  // The entry file is written last: with it, the others are whole.
  auto entry = read_whole_file(base.string() + ".entry");
  if (!entry || entry->empty()) return std::nullopt;
  CachedCode code;
  for (std::size_t at = 0; at < entry->size();) {
    const std::size_t end = std::min(entry->find('\n', at), entry->size());
    code.entries.push_back(entry->substr(at, end - at));
    at = end + 1;
  }
  if (auto ptx = read_whole_file(base.string() + ".ptx")) code.ptx = std::move(*ptx);
  if (auto cubin = read_whole_file(base.string() + ".cubin")) code.cubin = std::move(*cubin);
  if (auto compiler = read_whole_file(base.string() + ".compiler")) code.compiler = std::move(*compiler);
  if (code.ptx.empty() && code.cubin.empty()) return std::nullopt;
  return code;
}

std::string CodeCache::store(const std::string& key, const CachedCode& code) const {
  if (dir_.empty()) return "no cache folder (set KBENCH_CACHE_DIR, XDG_CACHE_HOME or HOME)";
  boost::system::error_code error;
  fs::create_directories(dir_, error);
  if (error) return "cannot make the cache folder " + dir_ + ": " + error.message();
  const fs::path base = fs::path(dir_) / key;
  std::string entries;
  for (const auto& e : code.entries) entries += (entries.empty() ? "" : "\n") + e;
  if ((!code.ptx.empty() && !write_whole(base.string() + ".ptx", code.ptx)) ||
      (!code.cubin.empty() && !write_whole(base.string() + ".cubin", code.cubin)) ||
      !write_whole(base.string() + ".compiler", code.compiler) ||
      !write_whole(base.string() + ".entry", entries)) {
    return "cannot write to the cache folder " + dir_;
  }
  return "";
}

std::string CodeCache::built(const std::string& variant_key) const {
  if (dir_.empty()) return "";
  return read_whole_file((fs::path(dir_) / (variant_key + ".built")).string()).value_or("");
}

std::string CodeCache::mark_built(const std::string& variant_key, const std::string& key) const {
  if (dir_.empty()) return "no cache folder (set KBENCH_CACHE_DIR, XDG_CACHE_HOME or HOME)";
  if (!write_whole(fs::path(dir_) / (variant_key + ".built"), key)) {
    return "cannot write to the cache folder " + dir_;
  }
  return "";
}

}  // namespace kb
