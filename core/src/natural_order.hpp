// The order of shapes, blocks and names in every table and plot: digit runs compare as numbers.
#pragma once

#include <string>

namespace kb {

// "512" < "2048", "32x8" < "32x32", "NVIDIA H100" < "NVIDIA H200".
bool natural_less(const std::string& a, const std::string& b);

}  // namespace kb
