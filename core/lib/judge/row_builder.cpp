#include "judge/row_builder.hpp"

#include "judge/case_judgement.hpp"
#include "plugin/kernel_manifest.hpp"
#include "store/version.hpp"
#include "util/number_text.hpp"

#include <array>
#include <ctime>

namespace kb {
namespace {

// Measurements to six significant digits, counts (bytes, flops) to seventeen: exactly.
std::string significant(const std::optional<double>& value) {
  return value ? significant_text(*value) : "";
}

std::string dims(const std::array<std::uint32_t, 3>& values) {
  const std::uint32_t plain[3] = {values[0], values[1], values[2]};
  return format_dims(plain);
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

namespace {

// The cells of the run and the planned case: what the case is, before anything ran.
void write_case_cells(ResultRow& row, const RunContext& run, const PlannedCase& c) {
  const PluginInfo& api = *c.plugin;
  row.set("run_id", run.run_id);
  row.set("host", run.host);
  row.set("kbench_version", kKbenchVersion);
  row.set("device", c.request.device < 0 ? "host" : std::to_string(c.request.device));
  row.set("family", api.family);
  row.set("plugin", api.name);
  row.set("plugin_version", api.version);
  row.set("referee", api.refereed_by_family() ? "family" : "plugin");
  if (api.kernel) {
    row.set("kernel_file", api.kernel->file);
    row.set("kernel_sha256", api.kernel->sha256);
  }
  row.set("code", c.code);
  row.set("dtype", dtype_name(c.request.dtype));
  row.set("repetition", std::to_string(c.repetition));
  row.set("op", c.request.op);
  row.set("shape", format_extent(c.request.shape));
  row.set("block", format_block(c.request.block));
  row.set("params", c.request.params);
  row.set("seed", std::to_string(c.request.seed));
  row.set("cache", run.cache);
}

}  // namespace

ResultRecord planned_record(const RunContext& run, const PlannedCase& c) {
  ResultRow row;
  write_case_cells(row, run, c);
  return record_of(row);
}

ResultRow build_row(const RunContext& run, const PlannedCase& c, const DeviceInfo* device,
                    const MeasuredBandwidth& measured, const CaseOutcome& outcome) {
  const double copy_gbps = measured.copy_gbps;
  ResultRow row;
  row.set("timestamp_utc", utc_timestamp());
  write_case_cells(row, run, c);
  if (device != nullptr) {
    row.set("gpu_name", device->name);
    row.set("gpu_uuid", device->uuid);
    row.set("compute_capability", compute_capability(*device));
    row.set("sm_count", std::to_string(device->sm_count));
    row.set("l2_bytes", std::to_string(device->l2_bytes));
    row.set("mem_bus_bits", std::to_string(device->mem_bus_bits));
    row.set("mem_clock_mhz", fixed_text(device->mem_clock_khz / 1e3, 0));
    row.set("theoretical_gbps", fixed_text(device->theoretical_gbps, 1));
    row.set("copy_gbps", copy_gbps > 0 ? fixed_text(copy_gbps, 1) : "");
    row.set("read_gbps", measured.read_gbps > 0 ? fixed_text(measured.read_gbps, 1) : "");
    row.set("l2_gbps", measured.l2_gbps > 0 ? fixed_text(measured.l2_gbps, 1) : "");
    row.set("driver_version", device->driver_version);
    row.set("runtime_version", device->runtime_version);
  }
  if (c.plugin->kernel) row.set("kernel_compiler", outcome.kernel_compiler);
  if (outcome.launch) row.set("grid", dims(outcome.launch->grid));
  if (const auto& s = outcome.samples) {
    row.set("samples", std::to_string(s->count));
    row.set("median_us", significant_text(s->median_us));
    row.set("min_us", significant_text(s->min_us));
    row.set("mean_us", significant_text(s->mean_us));
    row.set("stddev_us", significant_text(s->stddev_us));
    row.set("noise", significant_text(s->noise));
    row.set("settled", s->settled ? "1" : "0");
  }
  if (outcome.timing) {
    row.set("timing", timing_name(*outcome.timing));
    row.set("sample_launches", std::to_string(outcome.sample_launches));
  }
  row.set("batch_us", significant(outcome.batch_us));
  row.set("host_us", significant(outcome.host_us));
  if (const auto& v = outcome.verification) {
    row.set("max_rel_error", significant_text(v->max_rel_error));
    row.set("tolerance", significant_text(v->tolerance));
    row.set("metrics", v->metrics);
  }
  if (outcome.bytes) row.set("bytes", exact_text(*outcome.bytes));
  if (outcome.flops) row.set("flops", exact_text(*outcome.flops));
  if (const auto& d = outcome.device_state) {
    row.set("sm_clock_mhz", std::to_string(d->sm_clock_mhz));
    row.set("temperature_c", std::to_string(d->temperature_c));
    row.set("throttle", d->throttle);
  }
  row.set("energy_j", significant(outcome.energy_j));
  row.set("power_w", significant(outcome.power_w));
  if (const auto& cupti = outcome.cupti) {
    row.set("cupti_us", significant_text(cupti->us));
    row.set("cupti_kernels", significant_text(cupti->operations, 4));
  }
  row.set("counters", outcome.counters);

  const Judgement judged = judge_case(c, device, measured, outcome, run.cache == "cold");
  row.set("status", status_name(judged.status));
  row.set("message", judged.message);
  if (judged.gbps) row.set("gbps", fixed_text(*judged.gbps, 2));
  if (judged.gflops) row.set("gflops", fixed_text(*judged.gflops, 2));
  if (judged.gb_per_j) row.set("gb_per_j", fixed_text(*judged.gb_per_j, 3));
  if (judged.gflop_per_j) row.set("gflop_per_j", fixed_text(*judged.gflop_per_j, 3));
  row.set("peak", judged.peak);
  if (judged.fraction_of_peak) row.set("fraction_of_peak", fixed_text(*judged.fraction_of_peak, 4));
  return row;
}

}  // namespace kb
