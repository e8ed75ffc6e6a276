// The best-configuration file: for each problem `kbench tune` searched — keyed by GPU model,
// plugin and its version, data type, operation and shape — the configuration (block, params) it
// found fastest, which `kbench run --best FILE` runs. JSON (docs/tuning.md shows one): a person
// reads and edits it, a review diffs it, and each entry says where it came from (run id,
// strategy, evaluations), so its median can be found in the CSV.
#pragma once

#include "store/result_record.hpp"
#include "tune/search_space.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace kb {

struct BestKey {
  // A GPU model: name and compute capability (gpu_model.hpp); both empty for a host plugin.
  std::string gpu_name, compute_capability;
  std::string plugin, plugin_version, dtype, op, shape;  // cells of a results row

  auto cells() const {
    return std::tie(gpu_name, compute_capability, plugin, plugin_version, dtype, op, shape);
  }
  bool operator<(const BestKey& other) const { return cells() < other.cells(); }
  // "transpose/fast float32 8192x8192", "reduce/fast int32 sumsq 1048576": what a tune searched.
  std::string problem() const {
    return plugin + " " + dtype + (op.empty() ? "" : " " + op) + " " + shape;
  }
  bool operator==(const BestKey& other) const { return cells() == other.cells(); }
};

// The key of the problem a results row measured.
BestKey best_key(const ResultRecord& row);

struct BestConfig {
  BestKey key;
  Configuration configuration;
  double median_us = 0;         // its median in the tune that chose it
  std::string run_id;           // that tune's rows in the CSV
  std::string strategy;         // how it was found,
  std::uint64_t seed = 0;       //   with which seed,
  std::size_t evaluations = 0;  //   after how many evaluations
  std::size_t space = 0;        //   of how many configurations
  std::string tuned_utc;        // when
  // Fields a person added to the entry (a note, a ticket), as a JSON object: kept as they are
  // when the file is rewritten, and when a newer tune replaces the entry.
  std::string other_fields;
};

class BestConfigs {
 public:
  // The entries of FILE; none when it does not exist. An InputError names the file and the first
  // thing wrong with it (a folder, no JSON, an entry without a field kbench needs).
  static BestConfigs read(const std::string& path);

  const std::vector<BestConfig>& entries() const { return entries_; }  // in key order
  const BestConfig* find(const BestKey& key) const;
  // Adds the entry, in place of one with the same key: a newer tune replaces an older one, faster
  // or not (the driver, the clocks or the plugin's code may have changed since).
  void merge(const BestConfig& entry);
  // The file's own fields a person added beside kbench's, as a JSON object.
  const std::string& other_fields() const { return other_fields_; }

 private:
  std::vector<BestConfig> entries_;
  std::string other_fields_;
};

// Merges the entries into FILE (creating it), under a lock on FILE.lock so that two tunes merging
// at once both keep theirs; the file is replaced whole, never left half-written. Throws
// WriteError when it cannot be written.
void merge_best_configs(const std::string& path, const std::vector<BestConfig>& entries);

}  // namespace kb
