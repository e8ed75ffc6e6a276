// What a GPU can do at most, from its architecture, SM count and clock: the arithmetic peak of each
// kind of math, and the rate at which its SMs can load and store. One table, used to hold each row
// against the peak of the math its plugin uses (fraction_of_peak), to call a rate beyond it
// implausible, to draw the report's roofline and to predict the speed-up between two GPU models.
// An architecture the table lacks has no peaks at all (`known` false): never zeros taken for a
// roof, never another generation's figures.
#pragma once

#include <string>

namespace kb {

// The arithmetic a case is held to: SIMT FMA at its precision, or the tensor cores at theirs.
enum class Math { unknown, fp32, fp64, fp64_tensor, tf32, bf16, fp16, fp8 };

const char* math_name(Math math);  // "fp32", "fp64_tensor", "tf32", ...; "" for unknown
Math parse_math(const std::string& name);  // unknown for anything else

struct PeakRates {
  bool known = false;  // the architecture is in the table
  // GFLOP/s of dense math, 0 where the architecture lacks the unit.
  double fp32 = 0, fp64 = 0, fp64_tensor = 0, tf32 = 0, bf16 = 0, fp16 = 0, fp8 = 0;
  // The SMs' load/store rate, GB/s (128 bytes per SM per clock): no kernel moves its bytes faster,
  // wherever they come from (L2 or L1 included).
  double load_store_gbps = 0;

  double of(Math math) const;  // 0 for unknown
};

// From the compute capability, the SM count and the SM clock in MHz (the highest the device runs
// at: peaks are upper bounds).
PeakRates peak_rates(int cc_major, int cc_minor, int sm_count, double sm_clock_mhz);

// The boost SM clock (MHz) of the part the table's figures for the compute capability come from,
// for rows written without an SM clock; 0 where the table lacks the architecture.
double nominal_sm_clock_mhz(int cc_major, int cc_minor);

}  // namespace kb
