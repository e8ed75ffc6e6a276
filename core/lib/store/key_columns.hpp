// The key columns of a table of cases (case_columns.hpp): where one is, and which to print. Those
// that tell cases apart only sometimes (kShownWhereTheyDiffer: the GPU, the op, the parameters,
// the cache state) are printed only where they do: a table whose every case ran on one GPU does
// not repeat its name.
#pragma once

#include "store/case_columns.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace kb {

// The index of `name` among the key columns; key_columns.size() when absent.
inline std::size_t key_column(const std::vector<std::string>& key_columns, const char* name) {
  return static_cast<std::size_t>(std::find(key_columns.begin(), key_columns.end(), name) -
                                  key_columns.begin());
}

// Drops those of the optional key columns that hold one value in every row; `Row` has a `key`
// with one value per key column.
template <class Row>
void drop_constant_keys(std::vector<std::string>& key_columns, std::vector<Row>& rows) {
  for (const std::string& optional : kShownWhereTheyDiffer.names()) {
    const auto at = std::find(key_columns.begin(), key_columns.end(), optional);
    if (at == key_columns.end()) continue;
    const auto index = static_cast<std::size_t>(at - key_columns.begin());
    std::set<std::string> values;
    for (const auto& row : rows) values.insert(row.key[index]);
    if (values.size() > 1) continue;
    key_columns.erase(at);
    for (auto& row : rows) row.key.erase(row.key.begin() + static_cast<long>(index));
  }
}

}  // namespace kb
