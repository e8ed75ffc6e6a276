// The columns of a results row, in file order. results/README.md documents each one; changing
// this list changes the header, and a file with another header is refused, never mixed.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kb {

inline constexpr std::array<const char*, 67> kResultColumns = {
    "timestamp_utc", "run_id", "host", "kbench_version",
    "gpu_name", "gpu_uuid", "compute_capability", "sm_count", "l2_bytes", "mem_bus_bits",
    "mem_clock_mhz", "theoretical_gbps", "copy_gbps", "driver_version", "runtime_version",
    "device", "family", "plugin", "plugin_version", "dtype", "op", "shape", "block", "params",
    "grid", "seed", "cache", "repetition", "status", "message", "samples", "median_us", "min_us", "mean_us",
    "stddev_us", "noise", "settled", "timing", "sample_launches", "batch_us", "host_us", "gbps",
    "gflops", "peak", "fraction_of_peak", "max_rel_error", "tolerance", "bytes", "flops",
    "metrics", "sm_clock_mhz", "temperature_c", "throttle", "energy_j", "power_w", "gb_per_j",
    "gflop_per_j", "read_gbps", "l2_gbps", "referee", "cupti_us", "cupti_kernels", "counters",
    "kernel_file", "kernel_sha256", "kernel_compiler", "code"};

inline constexpr std::size_t kResultColumnCount = kResultColumns.size();

// The array's size is written by hand: a name missing from the list would be a null column.
constexpr bool all_named(const std::array<const char*, kResultColumnCount>& columns) {
  for (const char* column : columns) {
    if (column == nullptr) return false;
  }
  return true;
}
static_assert(all_named(kResultColumns), "kResultColumns: the size is larger than the list");

class ResultRow {
 public:
  ResultRow() : cells_(kResultColumnCount) {}
  explicit ResultRow(std::vector<std::string> cells);  // must hold kResultColumnCount cells

  void set(std::string_view column, std::string value);
  const std::string& get(std::string_view column) const;
  const std::vector<std::string>& cells() const { return cells_; }

 private:
  std::vector<std::string> cells_;
};

std::size_t column_index(std::string_view column);  // throws std::logic_error when unknown

// A column's place, where the name is known when compiling: column_of("median_us") as a template
// argument is checked then (a name not in the list fails to compile).
constexpr std::size_t column_of(std::string_view column) {
  for (std::size_t i = 0; i < kResultColumnCount; ++i) {
    if (column == kResultColumns[i]) return i;
  }
  throw std::logic_error("unknown result column");
}

}  // namespace kb
