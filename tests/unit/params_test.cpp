// A plugin's parameters (ABI version 2): the combinations a sweep crosses.
#include "plugin/params.hpp"

#include <gtest/gtest.h>

namespace {

TEST(Params, CombinationsCrossEveryParameterInDeclaredOrder) {
  kb::PluginInfo plugin;
  plugin.name = "x/y";
  plugin.params = {{"tile", "", {"32", "64"}, {}}, {"vec", "", {"1"}, {"1", "2", "4"}}};
  const auto all = kb::param_combinations(plugin, {{"vec", {"2", "4"}}});
  std::vector<std::string> text;
  for (const auto& c : all) text.push_back(kb::format_params(c));
  EXPECT_EQ(text, (std::vector<std::string>{"tile=32;vec=2", "tile=32;vec=4", "tile=64;vec=2",
                                            "tile=64;vec=4"}));
  EXPECT_EQ(kb::param_combinations(kb::PluginInfo{}, {}).size(), 1u);
}

}  // namespace
