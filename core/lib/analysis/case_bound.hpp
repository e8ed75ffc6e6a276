// What bounds a case, read from its row: the DRAM bandwidth, the L2, or the arithmetic peak of a
// precision. The expected scaling predicts by it, the roofline places its roofs by it, and the
// energy efficiency counts bytes or flops per joule by it.
#pragma once

#include "store/result_schema.hpp"

#include <string>

namespace kb {

// "memory" where `peak` is `copy` or the case moves at least as many bytes as it does flops —
// "L2" instead where its bytes fit in the L2 and the cache was hot, so that samples after the
// first read them from L2, not from DRAM — else the `peak` precision ("fp32", "bf16", ...); empty
// when neither says.
std::string case_bound(const ResultRow& row);

// Memory-bound, from DRAM or from L2.
bool moves_bytes(const std::string& bound);

}  // namespace kb
