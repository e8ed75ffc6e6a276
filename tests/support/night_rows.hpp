// Crafted rows of nightly runs: one case of one run, one row per repetition, with the medians the
// test chooses, for the verdict and history tests.
#pragma once

#include "store/result_columns.hpp"

#include <string>
#include <vector>

namespace kbtest {

struct NightCase {
  std::string plugin = "transpose/fast", dtype = "float32", shape = "1024x1024";
  std::string status = "ok", message;
  std::vector<double> medians;  // one per repetition (ignored unless ok: one row is written)
  double noise = 0.003;
  std::string gpu = "NVIDIA H100 80GB HBM3", uuid = "GPU-aaaaaaaa-1";
};

inline std::vector<kb::ResultCells> night_rows(const std::string& run, const NightCase& c,
                                             const std::string& timestamp = "2026-01-01T02:00:00Z") {
  std::vector<kb::ResultCells> rows;
  const std::size_t count = c.status == "ok" ? c.medians.size() : 1;
  for (std::size_t repetition = 0; repetition < count; ++repetition) {
    kb::ResultCells r;
    r.timestamp_utc = timestamp;
    r.run_id = run;
    r.host = "node1";
    r.gpu_name = c.gpu;
    r.gpu_uuid = c.uuid;
    r.compute_capability = "9.0";
    r.device = "0";
    r.family = c.plugin.substr(0, c.plugin.find('/'));
    r.plugin = c.plugin;
    r.dtype = c.dtype;
    r.shape = c.shape;
    r.block = "-";
    r.cache = "hot";
    r.repetition = std::to_string(repetition);
    r.status = c.status;
    r.message = c.message;
    if (c.status == "ok") {
      r.median_us = std::to_string(c.medians[repetition]);
      r.noise = std::to_string(c.noise);
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

// Five repetitions whose medians spread by 0.3% around 100 us, as a steady kernel's do.
inline const std::vector<double> kSteadyFive = {100.0, 100.3, 99.8, 100.1, 99.9};

inline NightCase shaped(const std::string& shape, std::vector<double> medians) {
  NightCase c;
  c.shape = shape;
  c.medians = std::move(medians);
  return c;
}

// `medians` scaled by `factor`: the same run, slower (> 1) or faster.
inline std::vector<double> scaled(std::vector<double> medians, double factor) {
  for (auto& m : medians) m *= factor;
  return medians;
}

// Four nights, one a day; case 2048 gets 10% slower on the third and stays so. The run ids sort
// against the order they ran in, which the history must follow.
inline std::vector<kb::ResultCells> four_nights() {
  const std::vector<std::string> ids = {"zeta", "epsilon", "delta", "alpha"};
  std::vector<kb::ResultCells> rows;
  for (int night = 0; night < 4; ++night) {
    const std::string stamp = "2026-11-1" + std::to_string(night) + "T02:00:00Z";
    const double slowdown = night >= 2 ? 4.4 : 4;
    for (const auto& c :
         {shaped("1024", kSteadyFive), shaped("2048", scaled(kSteadyFive, slowdown))}) {
      const auto more = night_rows(ids[night], c, stamp);
      rows.insert(rows.end(), more.begin(), more.end());
    }
  }
  return rows;
}

}  // namespace kbtest
