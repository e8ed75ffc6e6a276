#include "row_builder.hpp"

#include "result_selection.hpp"
#include "version.hpp"

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
    row.set("compute_capability",
            std::to_string(device->cc_major) + "." + std::to_string(device->cc_minor));
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
  row.set("op", c.request.op);
  row.set("shape", format_extent(c.request.shape));
  row.set("block", format_block(c.request.block));
  row.set("grid", field(result, "grid"));
  row.set("seed", std::to_string(c.request.seed));
  row.set("cache", run.cache);
  row.set("status", field(result, "status"));
  row.set("message", field(result, "message"));
  for (const char* key : {"samples", "median_us", "min_us", "mean_us", "stddev_us", "noise",
                          "settled", "batch_us", "max_rel_error", "tolerance", "bytes", "flops",
                          "metrics", "sm_clock_mhz", "temperature_c", "throttle"}) {
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
  if (device == nullptr) return row;
  // Arithmetic intensity over 1 flop per byte: held against the SIMT arithmetic peak;
  // otherwise against the measured copy bandwidth (what a pure data mover can reach).
  const bool compute_bound = flops > bytes;
  const double fp_peak = c.request.dtype == KB_DTYPE_F64 ? device->fp64_gflops : device->fp32_gflops;
  if (compute_bound && fp_peak > 0) {
    row.set("peak", c.request.dtype == KB_DTYPE_F64 ? "fp64" : "fp32");
    row.set("fraction_of_peak", fixed(gflops / fp_peak, 4));
  } else if (bytes > 0 && copy_gbps > 0) {
    row.set("peak", "copy");
    row.set("fraction_of_peak", fixed(gbps / copy_gbps, 4));
  }
  return row;
}

}  // namespace kb
