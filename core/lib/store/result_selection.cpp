#include "store/result_selection.hpp"

#include "store/results_store.hpp"
#include "util/input_error.hpp"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace kb {

std::vector<ResultRow> read_results_files(const std::vector<std::string>& paths) {
  if (paths.empty()) throw InputError("name at least one results CSV file");
  std::vector<ResultRow> rows;
  for (const auto& path : paths) {
    // Said here, as libfccp would call a missing file "corrupt".
    if (::access(path.c_str(), R_OK) != 0) throw InputError("cannot read results file '" + path + "'");
    auto more = read_results(path);
    rows.insert(rows.end(), std::make_move_iterator(more.begin()),
                std::make_move_iterator(more.end()));
  }
  if (rows.empty()) throw InputError("no rows in the results files given");
  return rows;
}

namespace {

bool family_matches(const std::string& family, const ResultRow& row) {
  return row.get("family") == family;
}

bool glob_matches(const std::string& glob, const ResultRow& row) {
  return fnmatch(glob.c_str(), row.get("plugin").c_str(), 0) == 0;
}

}  // namespace

bool row_selected(const ResultRow& row, const std::vector<std::string>& families,
                  const std::vector<std::string>& plugin_globs) {
  return (families.empty() || std::any_of(families.begin(), families.end(),
                                           [&](const auto& f) { return family_matches(f, row); })) &&
         (plugin_globs.empty() ||
          std::any_of(plugin_globs.begin(), plugin_globs.end(),
                      [&](const auto& g) { return glob_matches(g, row); }));
}

std::vector<ResultRow> select_rows(const std::vector<ResultRow>& rows,
                                   const std::vector<std::string>& families,
                                   const std::vector<std::string>& plugin_globs) {
  for (const auto& family : families) {
    if (std::none_of(rows.begin(), rows.end(), [&](const ResultRow& r) { return family_matches(family, r); })) {
      throw InputError("no row of family '" + family + "' in the results files");
    }
  }
  for (const auto& glob : plugin_globs) {
    if (std::none_of(rows.begin(), rows.end(), [&](const ResultRow& r) { return glob_matches(glob, r); })) {
      throw InputError("no row of a plugin matching '" + glob + "' in the results files");
    }
  }
  std::vector<ResultRow> selected;
  for (const auto& row : rows) {
    if (row_selected(row, families, plugin_globs)) selected.push_back(row);
  }
  if (selected.empty()) throw InputError("no row matches both the --family and --plugin filters");
  return selected;
}

std::optional<double> cell_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  // "nan", "inf" and an overflowing "1e999" are no numbers a row can hold.
  if (end == text.c_str() || *end != '\0' || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace kb
