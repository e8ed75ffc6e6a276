// The arithmetic peak of a GPU at each precision, from its compute capability, SM count and SM
// clock: the one table of per-SM rates that the roofline and the expected scaling read (and the
// runner's `peak` column may share). Pure functions, so the table is tested without a GPU.
#pragma once

#include <optional>
#include <string>

namespace kb {

struct ComputeCapability {
  int major = 0, minor = 0;
};

// "9.0" -> {9, 0}; nothing for an empty or malformed cell.
std::optional<ComputeCapability> parse_compute_capability(const std::string& text);

// FLOP per clock per SM at `precision`: "fp32", "fp64" (SIMT FMA: 2 x lanes), "tf32", "bf16",
// "fp16" (dense tensor-core math). Nothing where the table does not know the precision on that
// compute capability.
std::optional<double> flops_per_clock_per_sm(const std::string& precision, ComputeCapability cc);

// GFLOP/s: SMs x FLOP per clock per SM x clock.
std::optional<double> peak_gflops(const std::string& precision, ComputeCapability cc, int sm_count,
                                  double clock_mhz);

// The boost clock of the compute capability's data-center part, for rows without a measured SM
// clock. Nothing where the table has no data-center part.
std::optional<double> nominal_clock_mhz(ComputeCapability cc);

}  // namespace kb
