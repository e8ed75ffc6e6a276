// A seed no other process can compute: `seed` mixed with entropy drawn afresh for each call. The
// sweep's seed is public (every row names it, 42 unless --seed says otherwise), so inputs drawn from
// it alone are inputs a strategy can draw itself, without reading them; and a check whose seed is
// a function of it is a check a strategy can foresee.
#pragma once

#include <cstdint>

namespace kb {

std::uint64_t secret_seed(std::uint64_t seed);

}  // namespace kb
