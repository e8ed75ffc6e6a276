// Synthetic results rows for the report and scaling tests: one case on one card, with the columns
// the pivots, the scaling and the roofline read (GB/s and GFLOP/s follow from bytes, flops and
// the median, as the runner writes them).
#pragma once

#include "store/result_record.hpp"

#include <string>

namespace kbtest {

struct Card {
  std::string name, uuid;
  double copy_gbps = 0;
  std::string l2_bytes = "52428800";  // 50 MiB, an H100's
  std::string compute_capability = "9.0", sm_count = "132", sm_clock_mhz = "1980";
};

struct CaseSpec {
  std::string plugin, dtype = "float32", shape;
  double median_us = 0, bytes = 0, flops = 0;
  std::string peak = "copy", op = "", block = "-", metrics = "";
};

inline kb::ResultCells case_row(const Card& card, const CaseSpec& c,
                              const std::string& timestamp = "2026-01-01T00:00:00Z") {
  kb::ResultCells r;
  r.timestamp_utc = timestamp;
  r.run_id = "run-" + card.uuid;
  r.gpu_name = card.name;
  r.gpu_uuid = card.uuid;
  r.compute_capability = card.compute_capability;
  r.sm_count = card.sm_count;
  r.l2_bytes = card.l2_bytes;
  r.copy_gbps = std::to_string(card.copy_gbps);
  r.sm_clock_mhz = card.sm_clock_mhz;
  r.family = c.plugin.substr(0, c.plugin.find('/'));
  r.plugin = c.plugin;
  r.dtype = c.dtype;
  r.op = c.op;
  r.shape = c.shape;
  r.block = c.block;
  r.cache = "hot";
  r.status = "ok";
  r.median_us = std::to_string(c.median_us);
  r.noise = "0.001";
  if (c.bytes > 0) r.gbps = std::to_string(c.bytes / c.median_us / 1e3);
  if (c.flops > 0) r.gflops = std::to_string(c.flops / c.median_us / 1e3);
  r.peak = c.peak;
  r.bytes = std::to_string(c.bytes);
  r.flops = std::to_string(c.flops);
  r.metrics = c.metrics;
  return r;
}

// The same row read back, as the analysis takes it.
inline kb::ResultRecord case_record(const Card& card, const CaseSpec& c,
                                    const std::string& timestamp = "2026-01-01T00:00:00Z") {
  return kb::record_of(case_row(card, c, timestamp));
}

}  // namespace kbtest
