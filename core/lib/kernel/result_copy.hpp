// A kernel's result moved into its family's output: where a published kernel writes its result
// into a buffer of its own (partial sums parked in a wider array, the total at element 0) or in
// another element type than the family's (an int32 sum where the reduce family keeps int64), the
// strategy's launch ends with this copy, on the launch's stream.
#pragma once

#include <kbench/plugin.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace kb {

// Whether elements of `from` can become elements of `to` without loss: the same type, or a wider
// one of its kind (int32 into int64, float32 into float64, float16 or bfloat16 into float32).
bool result_copy_allowed(kb_dtype from, kb_dtype to);

// Enqueues the copy of `count` elements; "" once enqueued, otherwise why not.
std::string copy_result(const void* from, kb_dtype from_type, void* to, kb_dtype to_type,
                        std::uint64_t count, cudaStream_t stream);

}  // namespace kb
