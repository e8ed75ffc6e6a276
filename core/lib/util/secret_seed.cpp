#include "util/secret_seed.hpp"

#include <kbench/support/random.hpp>

#include <chrono>
#include <random>

namespace kb {

std::uint64_t secret_seed(std::uint64_t seed) {
  std::random_device entropy;
  const std::uint64_t drawn = (std::uint64_t{entropy()} << 32) ^ entropy();
  return mix64(seed ^ mix64(drawn ^ static_cast<std::uint64_t>(
                                        std::chrono::steady_clock::now().time_since_epoch().count())));
}

}  // namespace kb
