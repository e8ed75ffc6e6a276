#include "comparison.hpp"
#include "result_selection.hpp"

#include "input_error.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <utility>

namespace kb {
namespace {

using Key = std::vector<std::string>;

struct KeyLess {
  bool operator()(const Key& a, const Key& b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), natural_less);
  }
};

// A later row replaces an earlier one of the same case: the latest timestamp wins, and among
// equal timestamps the one further down the file (rows are appended).
bool is_later(const ResultRow& candidate, const ResultRow& held) {
  return candidate.get("timestamp_utc") >= held.get("timestamp_utc");
}

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

// Where the baseline names no column of this table, nullopt; ambiguity is an InputError.
std::optional<std::size_t> find_baseline(const std::vector<std::string>& columns,
                                         const std::string& name) {
  const auto exact = std::find(columns.begin(), columns.end(), name);
  if (exact != columns.end()) return exact - columns.begin();
  std::vector<std::size_t> strategy, contains;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const auto slash = columns[i].find('/');
    if (slash != std::string::npos && columns[i].substr(slash + 1) == name) strategy.push_back(i);
    if (columns[i].find(name) != std::string::npos) contains.push_back(i);
  }
  for (const auto* matches : {&strategy, &contains}) {
    if (matches->size() == 1) return matches->front();
    if (matches->size() > 1) {
      std::vector<std::string> names;
      for (auto i : *matches) names.push_back(columns[i]);
      throw InputError("baseline '" + name + "' is ambiguous: it matches " + join(names));
    }
  }
  return std::nullopt;
}

double speedup_of(Metric metric, double value, double baseline) {
  // Time is better when smaller, throughput when larger: > 1 always means better.
  return metric == Metric::time ? baseline / value : value / baseline;
}

bool better(Metric metric, double a, double b) {
  return metric == Metric::time ? a < b : a > b;
}

PivotCell cell_of(const ResultRow& row, Metric metric) {
  PivotCell cell;
  cell.status = row.get("status");
  const auto value = cell_number(row.get(metric_column(metric)));
  if (cell.status != "ok" || !value || !(*value > 0)) {
    cell.state = PivotCell::State::not_ok;
    if (cell.status == "ok") cell.status = std::string("no ") + metric_column(metric);
    return cell;
  }
  cell.state = PivotCell::State::ok;
  cell.value = *value;
  const auto noise = cell_number(row.get("noise"));
  cell.noise = noise && *noise > 0 ? *noise : 0;
  return cell;
}

// The rows of one table before pivoting: key -> column -> the row to show.
using Grid = std::map<Key, std::map<std::string, PivotCell>, KeyLess>;

// Against the baseline column, or (ladder) against the column before.
void fill_speedups(PivotTable& table, Metric metric, bool ladder) {
  table.geomean.assign(table.columns.size(), std::nullopt);
  std::vector<double> log_sum(table.columns.size(), 0);
  std::vector<std::size_t> count(table.columns.size(), 0);
  for (auto& row : table.rows) {
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      if (c == table.baseline || (ladder && c == 0)) continue;
      const PivotCell& base = row.cells[ladder ? c - 1 : table.baseline];
      PivotCell& cell = row.cells[c];
      if (base.state != PivotCell::State::ok || cell.state != PivotCell::State::ok) continue;
      cell.speedup = speedup_of(metric, cell.value, base.value);
      // An unknown noise (too few samples to bound the median) marks nothing.
      cell.within_noise = std::isfinite(cell.noise + base.noise) &&
                          std::abs(*cell.speedup - 1) <= cell.noise + base.noise;
      log_sum[c] += std::log(*cell.speedup);
      ++count[c];
    }
  }
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (count[c]) table.geomean[c] = std::exp(log_sum[c] / count[c]);
  }
}

// Puts the columns matching the first glob first, and so on; unmatched columns keep their order
// after them.
void reorder_columns(PivotTable& table, const std::vector<std::string>& order) {
  if (order.empty()) return;
  const auto rank = [&](const std::string& column) {
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (fnmatch(order[i].c_str(), column.c_str(), 0) == 0) return i;
    }
    return order.size();
  };
  std::vector<std::size_t> permutation(table.columns.size());
  std::iota(permutation.begin(), permutation.end(), 0);
  std::stable_sort(permutation.begin(), permutation.end(), [&](std::size_t a, std::size_t b) {
    return rank(table.columns[a]) < rank(table.columns[b]);
  });
  const auto permute = [&](auto& values) {
    auto original = values;
    for (std::size_t i = 0; i < permutation.size(); ++i) values[i] = original[permutation[i]];
  };
  permute(table.columns);
  for (auto& row : table.rows) permute(row.cells);
}

// Hides the key columns that tell rows apart only sometimes (the GPU, the op, the cache state)
// when every row of the table holds the same value there.
void drop_constant_columns(PivotTable& table) {
  for (const char* optional : {"gpu", "op", "cache"}) {
    const auto at = std::find(table.key_columns.begin(), table.key_columns.end(), optional);
    if (at == table.key_columns.end()) continue;
    const auto index = static_cast<std::size_t>(at - table.key_columns.begin());
    std::set<std::string> values;
    for (const auto& row : table.rows) values.insert(row.key[index]);
    if (values.size() > 1) continue;
    table.key_columns.erase(at);
    for (auto& row : table.rows) row.key.erase(row.key.begin() + index);
  }
}

PivotTable pivot(const std::string& title, std::vector<std::string> key_columns, const Grid& grid,
                 const std::set<std::string, bool (*)(const std::string&, const std::string&)>&
                     column_set) {
  PivotTable table;
  table.title = title;
  table.key_columns = std::move(key_columns);
  table.columns.assign(column_set.begin(), column_set.end());
  for (const auto& [key, by_column] : grid) {
    PivotRow row{key, std::vector<PivotCell>(table.columns.size())};
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const auto found = by_column.find(table.columns[c]);
      if (found != by_column.end()) row.cells[c] = found->second;
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::vector<PluginSummary> summarize_plugins(const PivotTable& table) {
  const auto plugin_at = static_cast<std::size_t>(
      std::find(table.key_columns.begin(), table.key_columns.end(), "plugin") -
      table.key_columns.begin());
  std::map<std::string, std::pair<std::vector<double>, std::vector<std::size_t>>> sums;
  for (const auto& row : table.rows) {
    auto& [log_sum, count] = sums[row.key[plugin_at]];
    log_sum.resize(table.columns.size(), 0);
    count.resize(table.columns.size(), 0);
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      if (!row.cells[c].speedup) continue;
      log_sum[c] += std::log(*row.cells[c].speedup);
      ++count[c];
    }
  }
  std::vector<PluginSummary> summaries;
  for (const auto& [plugin, sum] : sums) {
    PluginSummary summary{plugin, std::vector<std::optional<double>>(table.columns.size())};
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      if (sum.second[c]) summary.geomean[c] = std::exp(sum.first[c] / sum.second[c]);
    }
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

}  // namespace

CompareBy parse_compare_by(const std::string& text) {
  if (text == "gpu") return CompareBy::gpu;
  if (text == "run") return CompareBy::run;
  if (text == "plugin") return CompareBy::plugin;
  throw InputError("unknown --by '" + text + "' (gpu, run or plugin)");
}

Metric parse_metric(const std::string& text) {
  if (text == "time") return Metric::time;
  if (text == "gbps") return Metric::gbps;
  if (text == "gflops") return Metric::gflops;
  throw InputError("unknown --metric '" + text + "' (time, gbps or gflops)");
}

const char* metric_column(Metric metric) {
  switch (metric) {
    case Metric::time: return "median_us";
    case Metric::gbps: return "gbps";
    case Metric::gflops: return "gflops";
  }
  return "median_us";
}

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t i_end = i, j_end = j;
      while (i_end < a.size() && std::isdigit(static_cast<unsigned char>(a[i_end]))) ++i_end;
      while (j_end < b.size() && std::isdigit(static_cast<unsigned char>(b[j_end]))) ++j_end;
      const double x = std::strtod(a.substr(i, i_end - i).c_str(), nullptr);
      const double y = std::strtod(b.substr(j, j_end - j).c_str(), nullptr);
      if (x != y) return x < y;
      i = i_end;
      j = j_end;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

std::vector<std::string> gpu_labels(const std::vector<ResultRow>& rows) {
  std::map<std::string, std::set<std::string>> uuids_of_name;
  for (const auto& row : rows) uuids_of_name[row.get("gpu_name")].insert(row.get("gpu_uuid"));
  std::vector<std::string> labels;
  labels.reserve(rows.size());
  std::map<std::string, std::set<std::string>> gpus_of_run;
  for (const auto& row : rows) {
    const std::string& name = row.get("gpu_name");
    std::string label = name.empty() ? "host " + row.get("host") : name;
    // "GPU-73c875d3": the UUID's first group tells devices apart and stays short.
    if (!name.empty() && uuids_of_name[name].size() > 1) {
      label += " " + row.get("gpu_uuid").substr(0, 12);
    }
    if (!name.empty()) gpus_of_run[row.get("run_id")].insert(label);
    labels.push_back(std::move(label));
  }
  // A host plugin's row belongs with the GPU its run used, when the run used one: the seeds
  // compare the CPU loop with the kernels of the same machine.
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& gpus = gpus_of_run[rows[i].get("run_id")];
    if (rows[i].get("gpu_name").empty() && gpus.size() == 1) labels[i] = *gpus.begin();
  }
  return labels;
}

Comparison compare(const std::vector<ResultRow>& all_rows, const CompareRequest& request) {
  const Metric metric = request.metric;
  // A family that never reports the metric (no GFLOP/s for a transpose) has nothing to compare.
  std::set<std::string> families_with_metric;
  for (const auto& row : all_rows) {
    if (row.get("status") == "ok" && cell_number(row.get(metric_column(metric)))) {
      families_with_metric.insert(row.get("family"));
    }
  }
  if (families_with_metric.empty()) {
    throw InputError(std::string("no ok row reports ") + metric_column(metric));
  }
  const std::vector<std::string> gpus = gpu_labels(all_rows);

  // Latest row per (table, key, column, block): for --by plugin the block is chosen afterwards.
  std::map<std::string, std::map<std::pair<Key, std::string>, std::map<std::string, std::size_t>>>
      latest;
  std::vector<std::string> key_columns;
  switch (request.by) {
    case CompareBy::gpu: key_columns = {"family", "plugin", "dtype", "op", "shape", "block", "cache"}; break;
    case CompareBy::run: key_columns = {"gpu", "family", "plugin", "dtype", "op", "shape", "block", "cache"}; break;
    case CompareBy::plugin: key_columns = {"gpu", "dtype", "op", "shape", "cache"}; break;
  }
  for (std::size_t i = 0; i < all_rows.size(); ++i) {
    const ResultRow& row = all_rows[i];
    if (!families_with_metric.count(row.get("family"))) continue;
    Key key;
    for (const auto& column : key_columns) key.push_back(column == "gpu" ? gpus[i] : row.get(column));
    const std::string column = request.by == CompareBy::gpu   ? gpus[i]
                               : request.by == CompareBy::run ? row.get("run_id")
                                                              : row.get("plugin");
    const std::string table = request.by == CompareBy::plugin ? row.get("family") : "";
    const std::string block = request.by == CompareBy::plugin ? row.get("block") : "";
    auto& held = latest[table][{key, column}];
    const auto found = held.find(block);
    if (found == held.end() || is_later(row, all_rows[found->second])) held[block] = i;
  }

  Comparison comparison;
  comparison.by = request.by;
  comparison.metric = metric;
  comparison.ladder = request.ladder;
  for (const auto& [title, cases] : latest) {
    Grid grid;
    std::set<std::string, bool (*)(const std::string&, const std::string&)> columns(natural_less);
    for (const auto& [key_and_column, by_block] : cases) {
      // Across blocks (--by plugin): the best ok block, else the latest failure.
      std::optional<PivotCell> chosen;
      std::string chosen_timestamp;
      for (const auto& [block, index] : by_block) {
        PivotCell cell = cell_of(all_rows[index], metric);
        const std::string& timestamp = all_rows[index].get("timestamp_utc");
        const bool ok = cell.state == PivotCell::State::ok;
        const bool chosen_ok = chosen && chosen->state == PivotCell::State::ok;
        const bool take = !chosen ||
                          (ok && (!chosen_ok || better(metric, cell.value, chosen->value))) ||
                          (!ok && !chosen_ok && timestamp >= chosen_timestamp);
        if (!take) continue;
        if (request.by == CompareBy::plugin && block != "-") cell.block = block;
        chosen = std::move(cell);
        chosen_timestamp = timestamp;
      }
      grid[key_and_column.first][key_and_column.second] = *chosen;
      columns.insert(key_and_column.second);
    }
    comparison.tables.push_back(pivot(title, key_columns, grid, columns));
    reorder_columns(comparison.tables.back(), request.column_order);
  }

  bool baseline_found = request.baseline.empty();
  std::vector<std::string> known;
  for (auto& table : comparison.tables) {
    if (!request.baseline.empty()) {
      if (const auto at = find_baseline(table.columns, request.baseline)) {
        table.baseline = *at;
        baseline_found = true;
      }
    }
    known.insert(known.end(), table.columns.begin(), table.columns.end());
    fill_speedups(table, metric, request.ladder);
    drop_constant_columns(table);
  }
  if (!baseline_found) {
    throw InputError("unknown baseline '" + request.baseline + "'; the columns are " + join(known));
  }
  // With one column there is nothing to summarize: every plugin would read "baseline".
  if (request.by != CompareBy::plugin && comparison.tables.front().columns.size() > 1) {
    comparison.per_plugin = summarize_plugins(comparison.tables.front());
  }
  return comparison;
}

}  // namespace kb
