#include "store/result_selection.hpp"

#include "util/input_error.hpp"

#include <unistd.h>

namespace kb {
namespace {

std::vector<ResultRecord> read_readable(const std::string& path, const RowFilter& filter,
                                        FilterTally& tally) {
  // Said here, as libfccp would call a missing file "corrupt".
  if (::access(path.c_str(), R_OK) != 0) throw InputError("cannot read results file '" + path + "'");
  return read_records(path, filter, &tally);
}

}  // namespace

std::vector<ResultRecord> read_file_rows(const std::string& path, const RowFilter& filter,
                                         FilterTally& tally) {
  const std::size_t before = tally.rows;
  auto rows = read_readable(path, filter, tally);
  if (tally.rows == before) throw InputError("no rows in the results files given");
  return rows;
}

std::vector<ResultRecord> read_selected_rows(const std::vector<std::string>& paths,
                                             const RowFilter& filter, FilterTally* tally) {
  if (paths.empty()) throw InputError("name at least one results CSV file");
  FilterTally met;
  std::vector<ResultRecord> rows;
  for (const auto& path : paths) {
    auto more = read_readable(path, filter, met);
    if (rows.empty()) {
      rows = std::move(more);
    } else {
      rows.insert(rows.end(), std::make_move_iterator(more.begin()),
                  std::make_move_iterator(more.end()));
    }
  }
  if (met.rows == 0) throw InputError("no rows in the results files given");
  refuse_unmatched(filter, met);
  if (tally != nullptr) *tally = std::move(met);
  return rows;
}

void refuse_unmatched(const RowFilter& filter, const FilterTally& tally) {
  for (std::size_t i = 0; i < filter.families.size(); ++i) {
    if (!tally.families[i]) {
      throw InputError("no row of family '" + filter.families[i] + "' in the results files");
    }
  }
  for (std::size_t i = 0; i < filter.plugin_globs.size(); ++i) {
    if (!tally.plugin_globs[i]) {
      throw InputError("no row of a plugin matching '" + filter.plugin_globs[i] +
                       "' in the results files");
    }
  }
  if (tally.selected == 0) {
    throw InputError("no row matches both the --family and --plugin filters");
  }
}

}  // namespace kb
