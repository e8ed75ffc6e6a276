#include "store/row_builder.hpp"

#include "device/counters.hpp"
#include "device/peak_rates.hpp"
#include "measure/plausibility.hpp"
#include "plugin/kernel_manifest.hpp"
#include "store/version.hpp"
#include "util/number_text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
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

Math simt_math(kb_dtype dtype) { return dtype == KB_DTYPE_F64 ? Math::fp64 : Math::fp32; }

// The unit with the highest peak a case of `dtype` could run on: float64 on the FP64 tensor cores
// at best; anything else on the fastest unit of all (a float32 input rounded to 16 bits runs on
// the FP16 tensor cores).
Math fastest_math(const PeakRates& peaks, kb_dtype dtype) {
  if (dtype == KB_DTYPE_F64) return peaks.fp64_tensor > peaks.fp64 ? Math::fp64_tensor : Math::fp64;
  Math best = Math::fp32;
  for (const Math m : {Math::tf32, Math::bf16, Math::fp16}) {
    if (peaks.of(m) > peaks.of(best)) best = m;
  }
  return best;
}

// The math a plugin says its flops run on; unknown when it says nothing.
Math declared_math(std::uint32_t flags, kb_dtype dtype) {
  if (flags & KB_FLAG_MATH_TF32) return Math::tf32;
  if (flags & KB_FLAG_MATH_BF16) return Math::bf16;
  if (flags & KB_FLAG_MATH_FP16) return Math::fp16;
  if (flags & KB_FLAG_MATH_FP64_TENSOR) {
    return dtype == KB_DTYPE_F64 ? Math::fp64_tensor : simt_math(dtype);
  }
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
                    const MeasuredBandwidth& measured, const CaseOutcome& outcome) {
  const double copy_gbps = measured.copy_gbps;
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
    row.set("mem_clock_mhz", fixed_text(device->mem_clock_khz / 1e3, 0));
    row.set("theoretical_gbps", fixed_text(device->theoretical_gbps, 1));
    row.set("copy_gbps", copy_gbps > 0 ? fixed_text(copy_gbps, 1) : "");
    row.set("read_gbps", measured.read_gbps > 0 ? fixed_text(measured.read_gbps, 1) : "");
    row.set("l2_gbps", measured.l2_gbps > 0 ? fixed_text(measured.l2_gbps, 1) : "");
    row.set("driver_version", device->driver_version);
    row.set("runtime_version", device->runtime_version);
  }
  row.set("device", c.request.device < 0 ? "host" : std::to_string(c.request.device));
  row.set("family", api.family);
  row.set("plugin", api.name);
  row.set("plugin_version", api.version);
  row.set("referee", api.refereed_by_family() ? "family" : "plugin");
  if (api.kernel) {
    row.set("kernel_file", api.kernel->file);
    row.set("kernel_sha256", api.kernel->sha256);
    row.set("kernel_compiler", outcome.kernel_compiler);
  }
  row.set("code", c.code);
  row.set("dtype", dtype_name(c.request.dtype));
  row.set("repetition", std::to_string(c.repetition));
  row.set("op", c.request.op);
  row.set("shape", format_extent(c.request.shape));
  row.set("block", format_block(c.request.block));
  row.set("params", c.request.params);
  if (outcome.launch) row.set("grid", dims(outcome.launch->grid));
  row.set("seed", std::to_string(c.request.seed));
  row.set("cache", run.cache);
  row.set("status", status_name(outcome.status));
  row.set("message", outcome.message);
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

  const double seconds = outcome.samples ? outcome.samples->median_us * 1e-6 : NAN;
  const double bytes = outcome.bytes.value_or(NAN);
  const double flops = outcome.flops.value_or(NAN);
  if (!(seconds > 0)) return row;
  const double gbps = bytes / seconds / 1e9;
  const double gflops = flops / seconds / 1e9;
  if (bytes > 0) row.set("gbps", fixed_text(gbps, 2));
  if (flops > 0) row.set("gflops", fixed_text(gflops, 2));
  if (const double joules = outcome.energy_j.value_or(0); joules > 0) {
    if (bytes > 0) row.set("gb_per_j", fixed_text(bytes / 1e9 / joules, 3));
    if (flops > 0) row.set("gflop_per_j", fixed_text(flops / 1e9 / joules, 3));
  }
  if (device == nullptr) return row;

  const Math declared = declared_math(api.flags, c.request.dtype);
  const Math held_to = declared != Math::unknown ? declared : simt_math(c.request.dtype);
  const double math_peak = device->peaks.of(held_to);
  // The roofline: a case is compute-bound when its arithmetic intensity puts the memory roof
  // (measured copy bandwidth) above the math's peak. Readers take this back from `peak`
  // (analysis/case_bound.hpp says what they add to it).
  const double memory_roof = copy_gbps > 0 ? copy_gbps : device->theoretical_gbps;
  const bool compute_bound = flops > 0 && math_peak > 0 &&
                             (bytes <= 0 || flops / bytes * memory_roof >= math_peak);
  // A device the peak table lacks: whether its flops or its bytes bound the case is unknown, so
  // neither roof is claimed for a case that computes, and the row says why.
  const bool roof_unknown = flops > 0 && !device->peaks.known;
  if (compute_bound) {
    row.set("peak", math_name(held_to));
    row.set("fraction_of_peak", fixed_text(gflops / math_peak, 4));
  } else if (bytes > 0 && copy_gbps > 0 && !roof_unknown) {
    row.set("peak", "copy");
    row.set("fraction_of_peak", fixed_text(gbps / copy_gbps, 4));
  }
  if (roof_unknown) {
    const std::string note = "no peak rates for compute capability " +
                             compute_capability(*device) +
                             " in kbench's table: no fraction of peak, no FLOP/s check";
    const std::string& message = row.get("message");
    row.set("message", message.empty() ? note : message + "; " + note);
  }

  if (row.get("status") != "ok") return row;
  CaseTimings timings;
  timings.median_us = outcome.samples->median_us;
  timings.batch_us = outcome.batch_us.value_or(NAN);
  timings.enqueue_us = outcome.enqueue_us.value_or(NAN);
  timings.host_us = outcome.host_us.value_or(NAN);
  timings.host_idle_us = outcome.host_idle_us.value_or(NAN);
  timings.kernels = outcome.launch ? static_cast<int>(outcome.launch->kernels) : 0;
  timings.poisoned_us = outcome.poisoned_us.value_or(NAN);
  timings.single_us = outcome.single_us.value_or(NAN);
  if (outcome.captured_operations && *outcome.captured_operations >= 0) {
    timings.captured_operations = outcome.captured_operations;
  }
  timings.held = outcome.timing == TimingMethod::held;
  timings.plain = outcome.timing == TimingMethod::plain;
  timings.sample_launches = outcome.sample_launches;
  timings.launch_gain_us = outcome.launch_gain_us.value_or(NAN);
  if (const auto& cupti = outcome.cupti) {
    timings.cupti_us = cupti->us;
    timings.cupti_busiest_us = cupti->busiest_us;
    timings.cupti_operations = cupti->operations;
    timings.cupti_other_operations = cupti->other_operations;
  }
  CaseLimits limits;
  limits.bytes = std::max(bytes, 0.0);
  limits.flops = std::max(flops, 0.0);
  limits.cold = run.cache == "cold";
  // What the device measurably moves, where it was measured; else its theory.
  const double dram = std::max(measured.copy_gbps, measured.read_gbps);
  limits.dram_gbps = dram > 0 ? dram : device->theoretical_gbps;
  limits.dram_measured = dram > 0;
  limits.l2_bytes = static_cast<double>(device->l2_bytes);
  limits.l2_gbps = measured.l2_gbps > 0 ? measured.l2_gbps : device->peaks.load_store_gbps;
  limits.l2_measured = measured.l2_gbps > 0;
  // Declared math: its peak. None declared: the highest peak the data type could reach on any
  // unit of the device, so an undeclared tensor core is no excuse and no loophole.
  const Math held = declared != Math::unknown ? declared : fastest_math(device->peaks, c.request.dtype);
  limits.math_peak_gflops = device->peaks.of(held);
  limits.math = math_name(held);
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
