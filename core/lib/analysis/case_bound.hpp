// What bounds a case, read from its row: the DRAM bandwidth, the L2, or the arithmetic peak of a
// precision. The expected scaling predicts by it, the roofline places its roofs by it, and the
// energy efficiency counts bytes or flops per joule by it.
//
// Not the rule that wrote the row's `peak` (judge/case_judgement.cpp), on purpose: that one needs
// the device the case ran on (compute-bound where the case's flops per byte times its memory
// roof, the measured copy bandwidth, reach the peak of the math the plugin declares) and is
// decided once, when the row is written. This one reads that decision back and adds what a
// reader of many rows needs: "L2" for a hot case whose bytes fit in the L2 (its
// `fraction_of_peak` stays against DRAM), and a line that needs no device: a case moving at
// least a byte per flop is memory-bound, which bounds the rows without `peak` (host plugins, a
// device whose copy bandwidth was not measured, files older than the column). That line lies
// below the ridge point of every GPU measured, so it overrides no `peak` the writer decided on
// one.
#pragma once

#include "store/result_record.hpp"

#include <string>

namespace kb {

// "memory" where `peak` is `copy` or the case moves at least as many bytes as it does flops —
// "L2" instead where its bytes fit in the L2 and the cache was hot, so that samples after the
// first read them from L2, not from DRAM — else the `peak` precision ("fp32", "bf16", ...); empty
// when neither says.
std::string case_bound(const ResultRecord& row);

// Memory-bound, from DRAM or from L2.
bool moves_bytes(const std::string& bound);

}  // namespace kb
