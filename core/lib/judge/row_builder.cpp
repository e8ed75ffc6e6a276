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
void write_case_cells(ResultCells& row, const RunContext& run, const PlannedCase& c) {
  const PluginInfo& api = *c.plugin;
  row.run_id = run.run_id;
  row.host = run.host;
  row.kbench_version = kKbenchVersion;
  row.device = c.request.device < 0 ? "host" : std::to_string(c.request.device);
  row.family = api.family;
  row.plugin = api.name;
  row.plugin_version = api.version;
  row.referee = api.refereed_by_family() ? "family" : "plugin";
  if (api.kernel) {
    row.kernel_file = api.kernel->file;
    row.kernel_sha256 = api.kernel->sha256;
  }
  row.code = c.code;
  row.dtype = dtype_name(c.request.dtype);
  row.repetition = std::to_string(c.repetition);
  row.op = c.request.op;
  row.shape = format_extent(c.request.shape);
  row.block = format_block(c.request.block);
  row.params = c.request.params;
  row.seed = std::to_string(c.request.seed);
  row.cache = run.cache;
}

}  // namespace

ResultCells planned_cells(const RunContext& run, const PlannedCase& c) {
  ResultCells row;
  write_case_cells(row, run, c);
  return row;
}

ResultCells build_row(const RunContext& run, const PlannedCase& c, const DeviceInfo* device,
                    const MeasuredBandwidth& measured, const CaseOutcome& outcome) {
  const double copy_gbps = measured.copy_gbps;
  ResultCells row;
  row.timestamp_utc = utc_timestamp();
  write_case_cells(row, run, c);
  if (device != nullptr) {
    row.gpu_name = device->name;
    row.gpu_uuid = device->uuid;
    row.compute_capability = compute_capability(*device);
    row.sm_count = std::to_string(device->sm_count);
    row.l2_bytes = std::to_string(device->l2_bytes);
    row.mem_bus_bits = std::to_string(device->mem_bus_bits);
    row.mem_clock_mhz = fixed_text(device->mem_clock_khz / 1e3, 0);
    row.theoretical_gbps = fixed_text(device->theoretical_gbps, 1);
    row.copy_gbps = copy_gbps > 0 ? fixed_text(copy_gbps, 1) : "";
    row.read_gbps = measured.read_gbps > 0 ? fixed_text(measured.read_gbps, 1) : "";
    row.l2_gbps = measured.l2_gbps > 0 ? fixed_text(measured.l2_gbps, 1) : "";
    row.driver_version = device->driver_version;
    row.runtime_version = device->runtime_version;
  }
  if (c.plugin->kernel) row.kernel_compiler = outcome.kernel_compiler;
  if (outcome.launch) row.grid = dims(outcome.launch->grid);
  if (const auto& s = outcome.samples) {
    row.samples = std::to_string(s->count);
    row.median_us = significant_text(s->median_us);
    row.min_us = significant_text(s->min_us);
    row.mean_us = significant_text(s->mean_us);
    row.stddev_us = significant_text(s->stddev_us);
    row.noise = significant_text(s->noise);
    row.settled = s->settled ? "1" : "0";
  }
  if (outcome.timing) {
    row.timing = timing_name(*outcome.timing);
    row.sample_launches = std::to_string(outcome.sample_launches);
  }
  row.batch_us = significant(outcome.batch_us);
  row.host_us = significant(outcome.host_us);
  if (const auto& v = outcome.verification) {
    row.max_rel_error = significant_text(v->max_rel_error);
    row.tolerance = significant_text(v->tolerance);
    row.metrics = v->metrics;
  }
  if (outcome.bytes) row.bytes = exact_text(*outcome.bytes);
  if (outcome.flops) row.flops = exact_text(*outcome.flops);
  if (const auto& d = outcome.device_state) {
    row.sm_clock_mhz = std::to_string(d->sm_clock_mhz);
    row.temperature_c = std::to_string(d->temperature_c);
    row.throttle = d->throttle;
  }
  row.energy_j = significant(outcome.energy_j);
  row.power_w = significant(outcome.power_w);
  if (const auto& cupti = outcome.cupti) {
    row.cupti_us = significant_text(cupti->us);
    row.cupti_kernels = significant_text(cupti->operations, 4);
    row.kernels = cupti->kernels;
  }
  row.counters = outcome.counters;

  const Judgement judged = judge_case(c, device, measured, outcome, run.cache == "cold");
  row.status = status_name(judged.status);
  row.message = judged.message;
  if (judged.gbps) row.gbps = fixed_text(*judged.gbps, 2);
  if (judged.gflops) row.gflops = fixed_text(*judged.gflops, 2);
  if (judged.gb_per_j) row.gb_per_j = fixed_text(*judged.gb_per_j, 3);
  if (judged.gflop_per_j) row.gflop_per_j = fixed_text(*judged.gflop_per_j, 3);
  row.peak = judged.peak;
  if (judged.fraction_of_peak) row.fraction_of_peak = fixed_text(*judged.fraction_of_peak, 4);
  return row;
}

}  // namespace kb
