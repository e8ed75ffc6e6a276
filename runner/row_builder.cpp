#include "row_builder.hpp"

#include "peak_rates.hpp"
#include "plausibility.hpp"
#include "result_selection.hpp"
#include "version.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace kb {
namespace {

std::string fixed(double value, int decimals) {
  if (!std::isfinite(value)) return "";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string field(const Record& r, const char* key) {
  const auto it = r.find(key);
  return it == r.end() ? "" : it->second;
}

double number_of(const Record& r, const char* key) {
  return cell_number(field(r, key)).value_or(NAN);
}

Math simt_math(kb_dtype dtype) { return dtype == KB_DTYPE_F64 ? Math::fp64 : Math::fp32; }

// The math a plugin says its flops run on; unknown when it says nothing.
Math declared_math(std::uint32_t flags, kb_dtype dtype) {
  if (flags & KB_FLAG_MATH_TF32) return Math::tf32;
  if (flags & KB_FLAG_MATH_BF16) return Math::bf16;
  if (flags & KB_FLAG_MATH_FP16) return Math::fp16;
  if (flags & KB_FLAG_MATH_SIMT) return simt_math(dtype);
  return Math::unknown;
}

}  // namespace

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

ResultRow build_row(const RunContext& run, const PlannedCase& c, const DeviceInfo* device,
                    double copy_gbps, const Record& result) {
  ResultRow row;
  const PluginInfo& api = *c.plugin;
  row.set("timestamp_utc", utc_timestamp());
  row.set("run_id", run.run_id);
  row.set("host", run.host);
  row.set("kbench_version", kKbenchVersion);
  if (device != nullptr) {
    row.set("gpu_name", device->name);
    row.set("gpu_uuid", device->uuid);
    row.set("compute_capability", compute_capability(*device));
    row.set("sm_count", std::to_string(device->sm_count));
    row.set("l2_bytes", std::to_string(device->l2_bytes));
    row.set("mem_bus_bits", std::to_string(device->mem_bus_bits));
    row.set("mem_clock_mhz", fixed(device->mem_clock_khz / 1e3, 0));
    row.set("theoretical_gbps", fixed(device->theoretical_gbps, 1));
    row.set("copy_gbps", copy_gbps > 0 ? fixed(copy_gbps, 1) : "");
    row.set("driver_version", device->driver_version);
    row.set("runtime_version", device->runtime_version);
  }
  row.set("device", c.request.device < 0 ? "host" : std::to_string(c.request.device));
  row.set("family", api.family);
  row.set("plugin", api.name);
  row.set("plugin_version", api.version);
  row.set("dtype", dtype_name(c.request.dtype));
  row.set("repetition", std::to_string(c.repetition));
  row.set("op", c.request.op);
  row.set("shape", format_extent(c.request.shape));
  row.set("block", format_block(c.request.block));
  row.set("params", c.request.params);
  row.set("grid", field(result, "grid"));
  row.set("seed", std::to_string(c.request.seed));
  row.set("cache", run.cache);
  row.set("status", field(result, "status"));
  row.set("message", field(result, "message"));
  for (const char* key : {"samples", "median_us", "min_us", "mean_us", "stddev_us", "noise",
                          "settled", "timing", "sample_launches", "batch_us", "host_us",
                          "max_rel_error", "tolerance", "bytes", "flops", "metrics",
                          "sm_clock_mhz", "temperature_c", "throttle", "energy_j", "power_w"}) {
    row.set(key, field(result, key));
  }

  const double seconds = number_of(result, "median_us") * 1e-6;
  const double bytes = number_of(result, "bytes");
  const double flops = number_of(result, "flops");
  if (!(seconds > 0)) return row;
  const double gbps = bytes / seconds / 1e9;
  const double gflops = flops / seconds / 1e9;
  if (bytes > 0) row.set("gbps", fixed(gbps, 2));
  if (flops > 0) row.set("gflops", fixed(gflops, 2));
  if (const double joules = number_of(result, "energy_j"); joules > 0) {
    if (bytes > 0) row.set("gb_per_j", fixed(bytes / 1e9 / joules, 3));
    if (flops > 0) row.set("gflop_per_j", fixed(flops / 1e9 / joules, 3));
  }
  if (device == nullptr) return row;

  const Math declared = declared_math(api.flags, c.request.dtype);
  const Math held_to = declared != Math::unknown ? declared : simt_math(c.request.dtype);
  const double math_peak = device->peaks.of(held_to);
  // The roofline: a case is compute-bound when its arithmetic intensity puts the memory roof
  // (measured copy bandwidth) above the math's peak.
  const double memory_roof = copy_gbps > 0 ? copy_gbps : device->theoretical_gbps;
  const bool compute_bound = flops > 0 && math_peak > 0 &&
                             (bytes <= 0 || flops / bytes * memory_roof >= math_peak);
  if (compute_bound) {
    row.set("peak", math_name(held_to));
    row.set("fraction_of_peak", fixed(gflops / math_peak, 4));
  } else if (bytes > 0 && copy_gbps > 0) {
    row.set("peak", "copy");
    row.set("fraction_of_peak", fixed(gbps / copy_gbps, 4));
  }

  if (row.get("status") != "ok") return row;
  CaseTimings timings;
  timings.median_us = number_of(result, "median_us");
  timings.batch_us = number_of(result, "batch_us");
  timings.enqueue_us = number_of(result, "enqueue_us");
  timings.host_us = number_of(result, "host_us");
  timings.host_idle_us = number_of(result, "host_idle_us");
  timings.kernels = static_cast<int>(number_of(result, "kernels") > 0 ? number_of(result, "kernels") : 0);
  if (const double captured = number_of(result, "captured_ops"); captured >= 0) {
    timings.captured_operations = static_cast<long long>(captured);
  }
  CaseLimits limits;
  limits.bytes = std::max(bytes, 0.0);
  limits.flops = std::max(flops, 0.0);
  limits.cold = run.cache == "cold";
  limits.dram_gbps = device->theoretical_gbps;
  limits.l2_bytes = static_cast<double>(device->l2_bytes);
  limits.load_store_gbps = device->peaks.load_store_gbps;
  if (declared != Math::unknown) {
    limits.math_peak_gflops = math_peak;
    limits.math = math_name(declared);
  }
  const PlausibilityVerdict verdict = check_plausibility(timings, limits);
  std::string message = row.get("message");
  if (!verdict.implausible.empty()) {
    row.set("status", "implausible");
    message = verdict.implausible + (message.empty() ? "" : "; " + message);
  }
  for (const auto& note : verdict.notes) message += (message.empty() ? "" : "; ") + note;
  row.set("message", message);
  return row;
}

}  // namespace kb
