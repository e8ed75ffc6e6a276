#include "plugin/params.hpp"

#include "case/case_spec.hpp"
#include "util/input_error.hpp"

#include <algorithm>

namespace kb {

std::string format_params(const ParamValues& values) {
  std::string text;
  for (const auto& [name, value] : values) text += (text.empty() ? "" : ";") + name + "=" + value;
  return text;
}

ParamValues parse_params(const std::string& cell) {
  ParamValues params;
  for (std::size_t start = 0; start < cell.size();) {
    const auto end = std::min(cell.find(';', start), cell.size());
    const std::string item = cell.substr(start, end - start);
    start = end + 1;
    const auto equals = item.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == item.size()) {
      throw InputError("malformed parameters '" + cell + "': expected NAME=VALUE;NAME=VALUE");
    }
    params.emplace_back(item.substr(0, equals), item.substr(equals + 1));
  }
  return params;
}

std::map<std::string, std::vector<std::string>> parse_param_options(
    const std::vector<std::string>& options) {
  std::map<std::string, std::vector<std::string>> asked;
  for (const auto& option : options) {
    const auto eq = option.find('=');
    const std::string name = option.substr(0, std::min(eq, option.size()));
    if (eq == std::string::npos || name.empty()) {
      throw InputError("malformed --param '" + option + "': expected NAME=VALUE[,VALUE...]");
    }
    if (asked.count(name)) throw InputError("--param " + name + " given twice");
    const std::string what = "value of --param " + name;
    auto values = split_user_list(option.substr(eq + 1), what.c_str());
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i].find_first_of(";= \t") != std::string::npos) {
        throw InputError("--param " + name + ": value '" + values[i] +
                         "' holds ';', '=' or a space");
      }
      if (std::count(values.begin(), values.begin() + i, values[i])) {
        throw InputError("--param " + name + ": value '" + values[i] + "' given twice");
      }
    }
    asked[name] = std::move(values);
  }
  return asked;
}

std::vector<ParamValues> param_combinations(
    const PluginInfo& plugin, const std::map<std::string, std::vector<std::string>>& asked) {
  std::vector<ParamValues> combinations{{}};
  for (const ParamInfo& param : plugin.params) {
    const auto named = asked.find(param.name);
    const std::vector<std::string>& values = named != asked.end() ? named->second : param.values;
    for (const auto& value : values) {
      if (!param.choices.empty() &&
          std::find(param.choices.begin(), param.choices.end(), value) == param.choices.end()) {
        std::string choices;
        for (const auto& c : param.choices) choices += (choices.empty() ? "" : ",") + c;
        throw InputError("--param " + param.name + "=" + value + ": " + plugin.name +
                         " takes " + param.name + " in " + choices);
      }
    }
    std::vector<ParamValues> crossed;
    for (const auto& partial : combinations) {
      for (const auto& value : values) {
        crossed.push_back(partial);
        crossed.back().emplace_back(param.name, value);
      }
    }
    combinations = std::move(crossed);
  }
  return combinations;
}

}  // namespace kb
