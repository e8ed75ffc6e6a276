// A plugin's parameters in a case: one value of each knob it declares (kb_param), in its declared
// order, written "tile=256;vec=4" in rows, keys and kb_case.params. The values a sweep takes come
// from the declarations, or from --param NAME=V1,V2 where the user names them.
#pragma once

#include "plugin/plugin_info.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kb {

using ParamValues = std::vector<std::pair<std::string, std::string>>;

std::string format_params(const ParamValues& values);  // "tile=256;vec=4"; "" for none
// A params cell read back: "tile=256;vec=4" -> {{"tile", "256"}, {"vec", "4"}}; an InputError
// names a malformed one.
ParamValues parse_params(const std::string& cell);

// --param NAME=V1,V2 (each given once): name -> values. An InputError names a malformed one.
std::map<std::string, std::vector<std::string>> parse_param_options(
    const std::vector<std::string>& options);

// The cross product of the plugin's parameters: each one's values from `asked` where it is named
// there (each must be among the parameter's choices, else an InputError names it), else its
// declared values. One empty ParamValues for a plugin without parameters.
std::vector<ParamValues> param_combinations(
    const PluginInfo& plugin, const std::map<std::string, std::vector<std::string>>& asked);

}  // namespace kb
