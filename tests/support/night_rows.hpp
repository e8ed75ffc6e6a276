// Crafted rows of nightly runs: one case of one run, one row per repetition, with the medians the
// test chooses, for the verdict and history tests.
#pragma once

#include "store/result_schema.hpp"

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

inline std::vector<kb::ResultRow> night_rows(const std::string& run, const NightCase& c,
                                             const std::string& timestamp = "2026-01-01T02:00:00Z") {
  std::vector<kb::ResultRow> rows;
  const std::size_t count = c.status == "ok" ? c.medians.size() : 1;
  for (std::size_t repetition = 0; repetition < count; ++repetition) {
    kb::ResultRow r;
    r.set("timestamp_utc", timestamp);
    r.set("run_id", run);
    r.set("host", "node1");
    r.set("gpu_name", c.gpu);
    r.set("gpu_uuid", c.uuid);
    r.set("compute_capability", "9.0");
    r.set("device", "0");
    r.set("family", c.plugin.substr(0, c.plugin.find('/')));
    r.set("plugin", c.plugin);
    r.set("dtype", c.dtype);
    r.set("shape", c.shape);
    r.set("block", "-");
    r.set("cache", "hot");
    r.set("repetition", std::to_string(repetition));
    r.set("status", c.status);
    r.set("message", c.message);
    if (c.status == "ok") {
      r.set("median_us", std::to_string(c.medians[repetition]));
      r.set("noise", std::to_string(c.noise));
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
inline std::vector<kb::ResultRow> four_nights() {
  const std::vector<std::string> ids = {"zeta", "epsilon", "delta", "alpha"};
  std::vector<kb::ResultRow> rows;
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
