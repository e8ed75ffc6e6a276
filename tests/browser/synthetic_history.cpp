// A synthetic nightly history, deterministic: NIGHTS runs of CASES cases on each of two GPU
// models (an H100 and an H200, two cards each, a night's task landing on either), five
// repetitions a case, one CSV file per night (night-001.csv, ...), as `kbench run --repetitions 5`
// writes them. The test renders it with `kbench report --history --html` and holds the page's
// regressions against `kbench compare` on each pair of nights.
//
// What happens over the nights, by a fixed seed: each case's time drifts a little and is noisy
// from repetition to repetition (0.3%); about one case and model in six gets a step change on a
// night of its own, from 0.6% faster to 8% slower, which stays (a slower step is fixed later in
// half of them); a few nights run throttled (a lower SM clock, a noisier timing); one case crashes
// on one night. The steps of 2% and less are what `--fail-slower 3` must let pass.
//
// Usage: synthetic_history OUT_DIR [NIGHTS=100] [CASES=250]
#include "store/result_columns.hpp"
#include "util/csv.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

// splitmix64: the same numbers on every machine and standard library (std::normal_distribution's
// are not specified).
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) / 9007199254740992.0; }  // [0, 1)
  double noise() { return (uniform() + uniform() + uniform() - 1.5) / 1.5; }          // [-1, 1]
};

struct Case {
  std::string family, plugin, dtype, op, shape, block;
  double base_us;
};

// 250 cases of the three families, as the goal sweeps' shapes: transpose 100, reduce 80,
// matmul 70 (fewer when CASES is smaller).
std::vector<Case> cases_of(std::size_t count, Random& random) {
  std::vector<Case> cases;
  const auto add = [&](Case c) {
    if (cases.size() < count) cases.push_back(std::move(c));
  };
  for (const char* plugin : {"naive_row", "shared_padded", "tiled_coarse", "fast", "cublas"}) {
    for (const char* dtype : {"float32", "float64"}) {
      for (const char* shape : {"1024x1024", "2048x2048", "4096x4096", "8192x4096", "8192x8192"}) {
        for (const char* block : {"32x8", "32x16"}) {
          const bool blockless = std::string(plugin) == "cublas" || std::string(plugin) == "fast";
          add({"transpose", std::string("transpose/") + plugin, dtype, "", shape,
               blockless ? "-" : block, 20 + 400 * random.uniform()});
          if (blockless) break;  // cuBLAS and fast choose their own launch shape
        }
      }
    }
  }
  for (const char* plugin : {"tree_unrolled", "warp_shuffle", "fast", "cub", "multi_block"}) {
    for (const char* dtype : {"int32", "float32"}) {
      for (const char* op : {"sum", "sumsq"}) {
        for (const char* shape : {"1048576", "16777216", "67108864", "268435456"}) {
          add({"reduce", std::string("reduce/") + plugin, dtype, op, shape, "256",
               10 + 300 * random.uniform()});
        }
      }
    }
  }
  for (const char* plugin : {"tiled", "regblock", "tensor_mma", "tensor_wgmma", "cublas",
                             "cublas_tf32", "tensor_bf16"}) {
    for (const char* dtype : {"float32", "float64"}) {
      for (const char* shape : {"512x512x512", "1024x1024x1024", "2048x2048x2048",
                                "4096x4096x4096", "8192x8192x8192"}) {
        add({"matmul", std::string("matmul/") + plugin, dtype, "", shape, "-",
             50 + 5000 * random.uniform()});
      }
    }
  }
  // Past the three families' 250: more transpose shapes.
  for (std::size_t n = cases.size(); cases.size() < count; ++n) {
    add({"transpose", "transpose/naive_col", "float32", "", std::to_string(256 + 64 * n) + "x1024",
         "32x8", 10 + 100 * random.uniform()});
  }
  return cases;
}

struct Model {
  std::string name, short_name;
  double speed;  // time factor against the H100
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: synthetic_history OUT_DIR [NIGHTS=100] [CASES=250]\n";
    return 2;
  }
  const std::string dir = argv[1];
  const int nights = argc > 2 ? std::atoi(argv[2]) : 100;
  const std::size_t case_count = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 250;
  constexpr int kRepetitions = 5;
  Random random{20261125};
  const std::vector<Case> cases = cases_of(case_count, random);
  const std::vector<Model> models = {{"NVIDIA H100 80GB HBM3", "h100", 1.0},
                                     {"NVIDIA H200", "h200", 0.74}};

  // Per model and case: the night of its step (or none), the step, and the night it is undone.
  struct Step {
    int night = -1, undone = -1;
    double factor = 1;
  };
  std::vector<Step> steps(models.size() * cases.size());
  for (auto& step : steps) {
    if (random.uniform() >= 1.0 / 6) continue;
    step.night = 1 + static_cast<int>(random.uniform() * (nights - 1));
    const double pick = random.uniform();
    step.factor = pick < 0.15 ? 0.994 : pick < 0.35 ? 1.015 : pick < 0.5 ? 1.02 : 1.035 + 0.045 * random.uniform();
    if (step.factor > 1 && random.uniform() < 0.5) {
      step.undone = step.night + 1 + static_cast<int>(random.uniform() * (nights - step.night));
    }
  }
  std::vector<bool> throttled(nights);
  for (int night = 0; night < nights; ++night) throttled[night] = random.uniform() < 0.05;
  const int crash_night = nights / 2;

  std::vector<std::string> header(kb::kResultHeader.begin(), kb::kResultHeader.end());
  for (int night = 0; night < nights; ++night) {
    char name[64], run[32], stamp[32], version[48];
    std::snprintf(name, sizeof name, "/night-%03d.csv", night + 1);
    std::snprintf(run, sizeof run, "nightly-%03d", night + 1);
    const int day = night % 28 + 1, month = 8 + night / 28;  // a night each day from 2026-08-01
    std::snprintf(version, sizeof version, "0.1.0+g%07x", 0x5eed00 + night / 10);
    std::ofstream out(dir + name, std::ios::binary);
    out << kb::csv_line(header);
    for (std::size_t m = 0; m < models.size(); ++m) {
      const std::string card = std::to_string((night * 7 + static_cast<int>(m)) % 2);
      for (std::size_t c = 0; c < cases.size(); ++c) {
        const Case& k = cases[c];
        const Step& step = steps[m * cases.size() + c];
        double factor = models[m].speed * (1 + 0.002 * std::sin(night / 9.0 + c));
        if (step.night >= 0 && night >= step.night && (step.undone < 0 || night < step.undone)) {
          factor *= step.factor;
        }
        for (int repetition = 0; repetition < kRepetitions; ++repetition) {
          std::snprintf(stamp, sizeof stamp, "2026-%02d-%02dT02:%02d:%02dZ", month, day,
                        repetition * 10 + static_cast<int>(m) * 5, static_cast<int>(c % 60));
          kb::ResultCells row;
          row.timestamp_utc = stamp;
          row.run_id = run;
          row.host = "node-" + models[m].short_name + "-" + card;
          row.kbench_version = version;
          row.gpu_name = models[m].name;
          row.gpu_uuid = "GPU-" + models[m].short_name + "-card-" + card;
          row.compute_capability = "9.0";
          row.sm_count = "132";
          row.device = "0";
          row.family = k.family;
          row.plugin = k.plugin;
          row.dtype = k.dtype;
          row.op = k.op;
          row.shape = k.shape;
          row.block = k.block;
          row.cache = "hot";
          row.repetition = std::to_string(repetition);
          const bool crashed = night == crash_night && c == 7 && m == 0;
          row.status = crashed ? "crashed" : "ok";
          if (crashed) {
            row.message = "the worker died (signal 11)";
          } else {
            const double spread = throttled[night] ? 0.009 : 0.003;
            const double us = k.base_us * factor * (1 + spread * random.noise());
            char text[32];
            std::snprintf(text, sizeof text, "%.4f", us);
            row.median_us = text;
            row.noise = "0.002";
            row.samples = "40";
            row.sm_clock_mhz = throttled[night] ? "1755" : "1980";
            if (throttled[night]) row.throttle = "sw_power_cap";
            std::snprintf(text, sizeof text, "%.4g", us * 1e-6 * 650);
            row.energy_j = text;
          }
          out << kb::csv_line(kb::cells_in_order(row));
        }
      }
    }
    if (!out) {
      std::cerr << "cannot write " << dir << name << "\n";
      return 1;
    }
  }
  std::cout << nights << " nights x " << cases.size() << " cases x " << models.size()
            << " GPU models x " << kRepetitions << " repetitions in " << dir << "\n";
  return 0;
}
