#include "store/result_selection.hpp"

#include "store/record_reader.hpp"
#include "util/input_error.hpp"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>

namespace kb {

std::vector<ResultRecord> read_results_files(const std::vector<std::string>& paths) {
  if (paths.empty()) throw InputError("name at least one results CSV file");
  std::vector<ResultRecord> rows;
  for (const auto& path : paths) {
    // Said here, as libfccp would call a missing file "corrupt".
    if (::access(path.c_str(), R_OK) != 0) throw InputError("cannot read results file '" + path + "'");
    auto more = read_records(path);
    rows.insert(rows.end(), std::make_move_iterator(more.begin()),
                std::make_move_iterator(more.end()));
  }
  if (rows.empty()) throw InputError("no rows in the results files given");
  return rows;
}

namespace {

bool family_matches(const std::string& family, const ResultRecord& row) {
  return row.family == family;
}

bool glob_matches(const std::string& glob, const ResultRecord& row) {
  return fnmatch(glob.c_str(), row.plugin.c_str(), 0) == 0;
}

}  // namespace

bool row_selected(const ResultRecord& row, const std::vector<std::string>& families,
                  const std::vector<std::string>& plugin_globs) {
  return (families.empty() || std::any_of(families.begin(), families.end(),
                                           [&](const auto& f) { return family_matches(f, row); })) &&
         (plugin_globs.empty() ||
          std::any_of(plugin_globs.begin(), plugin_globs.end(),
                      [&](const auto& g) { return glob_matches(g, row); }));
}

std::vector<ResultRecord> select_rows(const std::vector<ResultRecord>& rows,
                                      const std::vector<std::string>& families,
                                      const std::vector<std::string>& plugin_globs) {
  for (const auto& family : families) {
    if (std::none_of(rows.begin(), rows.end(), [&](const ResultRecord& r) { return family_matches(family, r); })) {
      throw InputError("no row of family '" + family + "' in the results files");
    }
  }
  for (const auto& glob : plugin_globs) {
    if (std::none_of(rows.begin(), rows.end(), [&](const ResultRecord& r) { return glob_matches(glob, r); })) {
      throw InputError("no row of a plugin matching '" + glob + "' in the results files");
    }
  }
  std::vector<ResultRecord> selected;
  for (const auto& row : rows) {
    if (row_selected(row, families, plugin_globs)) selected.push_back(row);
  }
  if (selected.empty()) throw InputError("no row matches both the --family and --plugin filters");
  return selected;
}

}  // namespace kb
