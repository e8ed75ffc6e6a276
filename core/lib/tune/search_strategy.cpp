#include "tune/search_strategy.hpp"

#include "util/input_error.hpp"

namespace kb {

const SearchStrategy& find_strategy(const std::string& name) {
  std::string names;
  for (const auto& strategy : kSearchStrategies) {
    if (name == strategy.name) return strategy;
    names += std::string(names.empty() ? "" : ", ") + strategy.name;
  }
  throw InputError("unknown strategy '" + name + "' (strategies: " + names + ")");
}

}  // namespace kb
