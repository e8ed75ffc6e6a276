#include "tune/best_configs.hpp"

#include "util/input_error.hpp"
#include "util/output_file.hpp"
#include "util/write_error.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <boost/filesystem/operations.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kb {
namespace {

constexpr const char* kFormat = "kbench-best-configurations";
constexpr int kFormatVersion = 1;

using Json = nlohmann::ordered_json;

// kbench's fields first, then those a person added, in their order.
Json with_others(Json object, const std::string& others) {
  if (others.empty()) return object;
  const Json parsed = Json::parse(others);
  for (const auto& [name, value] : parsed.items()) object[name] = value;
  return object;
}

// An object's fields other than `known`, as a JSON object's text; "" when none.
std::string others_of(const Json& object, std::initializer_list<const char*> known) {
  Json others = Json::object();
  for (const auto& [name, value] : object.items()) {
    if (std::none_of(known.begin(), known.end(), [&](const char* k) { return name == k; })) {
      others[name] = value;
    }
  }
  return others.empty() ? "" : others.dump();
}

Json to_json(const BestConfig& e) {
  return with_others({{"gpu_name", e.key.gpu_name},
          {"compute_capability", e.key.compute_capability},
          {"plugin", e.key.plugin},
          {"plugin_version", e.key.plugin_version},
          {"dtype", e.key.dtype},
          {"op", e.key.op},
          {"shape", e.key.shape},
          {"block", e.configuration.block},
          {"params", e.configuration.params},
          {"median_us", e.median_us},
          {"run_id", e.run_id},
          {"strategy", e.strategy},
          {"seed", e.seed},
          {"evaluations", e.evaluations},
          {"space", e.space},
          {"tuned_utc", e.tuned_utc}},
                     e.other_fields);
}

// Throws nlohmann::json's exceptions on a missing field or one of another type.
BestConfig from_json(const Json& j) {
  const auto text = [&](const char* field) { return j.at(field).get<std::string>(); };
  BestConfig e;
  e.key = {text("gpu_name"), text("compute_capability"),
           text("plugin"),   text("plugin_version"),
           text("dtype"),    text("op"),
           text("shape")};
  e.configuration = {text("block"), text("params")};
  e.median_us = j.at("median_us").get<double>();
  e.run_id = text("run_id");
  e.strategy = text("strategy");
  e.seed = j.at("seed").get<std::uint64_t>();
  e.evaluations = j.at("evaluations").get<std::size_t>();
  e.space = j.at("space").get<std::size_t>();
  e.tuned_utc = text("tuned_utc");
  e.other_fields = others_of(j, {"gpu_name", "compute_capability", "plugin", "plugin_version",
                                 "dtype", "op", "shape", "block", "params", "median_us", "run_id",
                                 "strategy", "seed", "evaluations", "space", "tuned_utc"});
  return e;
}

// Holds an exclusive lock on FILE.lock while a tune merges into FILE.
class MergeLock {
 public:
  explicit MergeLock(const std::string& path) {
    const std::string lock_path = path + ".lock";
    fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw WriteError("cannot open '" + lock_path + "': " + std::strerror(errno));
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    if (::fcntl(fd_, F_OFD_SETLKW, &lock) != 0) {
      const int error = errno;
      ::close(fd_);
      throw WriteError("cannot lock '" + lock_path + "': " + std::strerror(error));
    }
  }
  ~MergeLock() { ::close(fd_); }
  MergeLock(const MergeLock&) = delete;
  MergeLock& operator=(const MergeLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

BestKey best_key(const ResultRecord& row) {
  return {row.gpu_name, row.compute_capability, row.plugin, row.plugin_version,
          row.dtype,    row.op,                 row.shape};
}

BestConfigs BestConfigs::read(const std::string& path) {
  BestConfigs configs;
  boost::system::error_code error;
  const auto status = boost::filesystem::status(path, error);
  if (status.type() == boost::filesystem::file_not_found) return configs;
  if (error || status.type() != boost::filesystem::regular_file) {
    throw InputError("best-configuration file '" + path + "' is not a readable file" +
                     (error ? ": " + error.message() : ""));
  }
  std::ifstream in(path);
  if (!in) throw InputError("cannot read best-configuration file '" + path + "'");
  try {
    const Json file = Json::parse(in);
    if (file.at("format") != kFormat || file.at("version") != kFormatVersion) {
      throw InputError("best-configuration file '" + path + "' is not a " + kFormat +
                       " file of version " + std::to_string(kFormatVersion));
    }
    for (const auto& entry : file.at("configurations")) configs.merge(from_json(entry));
    configs.other_fields_ = others_of(file, {"format", "version", "configurations"});
  } catch (const nlohmann::json::exception& e) {
    throw InputError("best-configuration file '" + path + "': " + e.what());
  }
  return configs;
}

const BestConfig* BestConfigs::find(const BestKey& key) const {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                                   [](const BestConfig& e, const BestKey& k) { return e.key < k; });
  return it != entries_.end() && it->key == key ? &*it : nullptr;
}

void BestConfigs::merge(const BestConfig& entry) {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), entry.key,
                                   [](const BestConfig& e, const BestKey& k) { return e.key < k; });
  if (it != entries_.end() && it->key == entry.key) {
    const std::string kept = it->other_fields;
    *it = entry;
    if (it->other_fields.empty()) it->other_fields = kept;  // a person's note outlives a retune
  } else {
    entries_.insert(it, entry);
  }
}

void merge_best_configs(const std::string& path, const std::vector<BestConfig>& entries) {
  // As a results file's: a folder not yet made is made (a failure shows at the lock's open).
  const auto parent = boost::filesystem::path(path).parent_path();
  boost::system::error_code ignored;
  if (!parent.empty()) boost::filesystem::create_directories(parent, ignored);
  const MergeLock lock(path);
  BestConfigs configs = BestConfigs::read(path);
  for (const auto& entry : entries) configs.merge(entry);
  Json list = Json::array();
  for (const auto& entry : configs.entries()) list.push_back(to_json(entry));
  const Json file = with_others(
      {{"format", kFormat}, {"version", kFormatVersion}, {"configurations", list}},
      configs.other_fields());
  const std::string temporary = path + ".tmp";
  try {
    write_output_file(temporary, file.dump(2) + "\n", "best-configuration file");
  } catch (...) {
    std::remove(temporary.c_str());
    throw;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw WriteError("cannot replace '" + path + "': " + std::strerror(error));
  }
}

}  // namespace kb
