#include "judge/case_judgement.hpp"

#include "device/peak_rates.hpp"
#include "judge/plausibility.hpp"

#include <algorithm>
#include <cmath>

namespace kb {
namespace {

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

void append(std::string& message, const std::string& note) {
  message += (message.empty() ? "" : "; ") + note;
}

CaseTimings timings_of(const CaseOutcome& outcome) {
  CaseTimings timings;
  timings.median_us = outcome.samples->median_us;
  timings.stddev_us = outcome.samples->stddev_us;
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
    timings.cupti_launches = cupti->launches;
  }
  return timings;
}

}  // namespace

Judgement judge_case(const PlannedCase& c, const DeviceInfo* device,
                     const MeasuredBandwidth& measured, const CaseOutcome& outcome, bool cold) {
  Judgement judged;
  judged.status = outcome.status;
  judged.message = outcome.message;
  const double seconds = outcome.samples ? outcome.samples->median_us * 1e-6 : NAN;
  const double bytes = outcome.bytes.value_or(NAN);
  const double flops = outcome.flops.value_or(NAN);
  if (!(seconds > 0)) return judged;
  const double gbps = bytes / seconds / 1e9;
  const double gflops = flops / seconds / 1e9;
  if (bytes > 0) judged.gbps = gbps;
  if (flops > 0) judged.gflops = gflops;
  if (const double joules = outcome.energy_j.value_or(0); joules > 0) {
    if (bytes > 0) judged.gb_per_j = bytes / 1e9 / joules;
    if (flops > 0) judged.gflop_per_j = flops / 1e9 / joules;
  }
  if (device == nullptr) return judged;

  const double copy_gbps = measured.copy_gbps;
  const PluginInfo& api = *c.plugin;
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
    judged.peak = math_name(held_to);
    judged.fraction_of_peak = gflops / math_peak;
  } else if (bytes > 0 && copy_gbps > 0 && !roof_unknown) {
    judged.peak = "copy";
    judged.fraction_of_peak = gbps / copy_gbps;
  }
  if (roof_unknown) {
    append(judged.message, "no peak rates for compute capability " + compute_capability(*device) +
                               " in kbench's table: no fraction of peak, no FLOP/s check");
  }

  if (judged.status != CaseStatus::ok) return judged;
  CaseLimits limits;
  limits.bytes = std::max(bytes, 0.0);
  limits.flops = std::max(flops, 0.0);
  limits.cold = cold;
  // What the device measurably moves, where it was measured; else its theory.
  const double dram = std::max(measured.copy_gbps, measured.read_gbps);
  limits.dram_gbps = dram > 0 ? dram : device->theoretical_gbps;
  limits.dram_measured = dram > 0;
  limits.l2_bytes = static_cast<double>(device->l2_bytes);
  limits.l2_gbps = measured.l2_gbps > 0 ? measured.l2_gbps : device->peaks.load_store_gbps;
  limits.l2_measured = measured.l2_gbps > 0;
  // Declared math: its peak. None declared: the highest peak the data type could reach on any
  // unit of the device, so an undeclared tensor core is no excuse and no loophole.
  const Math held =
      declared != Math::unknown ? declared : fastest_math(device->peaks, c.request.dtype);
  limits.math_peak_gflops = device->peaks.of(held);
  limits.math = math_name(held);
  const PlausibilityVerdict verdict = check_plausibility(timings_of(outcome), limits);
  if (!verdict.implausible.empty()) {
    judged.status = CaseStatus::implausible;
    judged.message = verdict.implausible + (judged.message.empty() ? "" : "; " + judged.message);
  }
  for (const auto& note : verdict.notes) append(judged.message, note);
  return judged;
}

}  // namespace kb
