// Synthetic results rows for the compare tests: one case of one plugin on one card, its median
// and noise given as the text a results file holds.
#pragma once

#include "store/result_columns.hpp"

#include <string>

namespace kbtest {

struct Case {
  std::string gpu = "NVIDIA H100", uuid = "GPU-aaaaaaaa-1";
  std::string plugin = "transpose/fast", shape = "1024x1024", block = "-";
  std::string status = "ok", median_us = "100", noise = "0.005";
  std::string timestamp = "2026-01-01T00:00:00Z", run = "run-1", dtype = "float32";
};

inline kb::ResultCells make_row(const Case& c) {
  kb::ResultCells row;
  row.timestamp_utc = c.timestamp;
  row.run_id = c.run;
  row.gpu_name = c.gpu;
  row.gpu_uuid = c.uuid;
  row.family = c.plugin.substr(0, c.plugin.find('/'));
  row.plugin = c.plugin;
  row.dtype = c.dtype;
  row.shape = c.shape;
  row.block = c.block;
  row.cache = "hot";
  row.status = c.status;
  if (c.status == "ok") {
    row.median_us = c.median_us;
    row.noise = c.noise;
    row.gbps = std::to_string(1e4 / std::stod(c.median_us));
  }
  return row;
}

inline Case on(const std::string& gpu, const std::string& uuid, Case c = {}) {
  c.gpu = gpu;
  c.uuid = uuid;
  return c;
}

inline Case with(Case c, const std::string& shape, const std::string& median_us) {
  c.shape = shape;
  c.median_us = median_us;
  return c;
}

}  // namespace kbtest
