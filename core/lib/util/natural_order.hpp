// The order of shapes, blocks and names in every table and plot: digit runs compare as numbers.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace kb {

// "512" < "2048", "32x8" < "32x32", "NVIDIA H100" < "NVIDIA H200".
bool natural_less(const std::string& a, const std::string& b);

// Keys of several cells (a case's plugin, dtype, shape...), cell by cell in natural order.
struct NaturalKeyLess {
  bool operator()(const std::vector<std::string>& a, const std::vector<std::string>& b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), natural_less);
  }
};

}  // namespace kb
