// A table as the HTML pages embed it: column by column (columnar JSON), each text column as a
// dictionary of its distinct values and one small integer per row, each number rounded to the
// digits a reader can see. 100 nights of 500 cases hold 50,000 values per column; written as
// objects, each row would repeat every key and every name.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kb {

class JsonColumns {
 public:
  explicit JsonColumns(std::size_t rows) : rows_(rows) {}

  // {"dict": [distinct values, in order of first appearance], "codes": [one index per row]}.
  void add_text(const std::string& name, const std::vector<std::string>& values);
  // One number per row, to `digits` significant digits (an integral one without ".0"); null
  // where there is none.
  void add_numbers(const std::string& name, const std::vector<std::optional<double>>& values,
                   int digits = 4);

  // {"n": rows, "columns": {name: column, ...}}
  nlohmann::json json() const;

 private:
  std::size_t rows_;
  nlohmann::json columns_ = nlohmann::json::object();
};

// A number as the pages hold it: `digits` significant digits, integral values as integers, null
// for nothing (or a value that is not finite).
nlohmann::json json_number(std::optional<double> value, int digits = 4);

// The JSON text to put inside <script type="application/json">: every '<' escaped, so that no
// value (a message holding "</script>") can end the element early.
std::string script_json(const nlohmann::json& value);

}  // namespace kb
