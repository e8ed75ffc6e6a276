#include "report/json_columns.hpp"

#include "util/number_text.hpp"

#include <cmath>
#include <map>
#include <stdexcept>

namespace kb {

nlohmann::json json_number(std::optional<double> value, int digits) {
  if (!value || !std::isfinite(*value)) return nullptr;
  const double rounded = std::stod(significant_text(*value, digits));
  if (std::abs(rounded) < 1e15 && rounded == std::floor(rounded)) {
    return static_cast<long long>(rounded);
  }
  return rounded;
}

void JsonColumns::add_text(const std::string& name, const std::vector<std::string>& values) {
  if (values.size() != rows_) throw std::logic_error("column '" + name + "' has another length");
  std::map<std::string, std::size_t> code_of;
  nlohmann::json dict = nlohmann::json::array(), codes = nlohmann::json::array();
  for (const auto& value : values) {
    const auto [at, added] = code_of.emplace(value, code_of.size());
    if (added) dict.push_back(value);
    codes.push_back(at->second);
  }
  columns_[name] = {{"dict", std::move(dict)}, {"codes", std::move(codes)}};
}

void JsonColumns::add_numbers(const std::string& name,
                              const std::vector<std::optional<double>>& values, int digits) {
  if (values.size() != rows_) throw std::logic_error("column '" + name + "' has another length");
  nlohmann::json column = nlohmann::json::array();
  for (const auto& value : values) column.push_back(json_number(value, digits));
  columns_[name] = std::move(column);
}

nlohmann::json JsonColumns::json() const { return {{"n", rows_}, {"columns", columns_}}; }

std::string script_json(const nlohmann::json& value) {
  // Invalid UTF-8 in a cell (a plugin's message) is replaced, not thrown on.
  const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    if (ch == '<') out += "\\u003c";
    else out += ch;
  }
  return out;
}

}  // namespace kb
