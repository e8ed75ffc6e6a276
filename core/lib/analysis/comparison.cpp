#include "analysis/comparison.hpp"

#include "analysis/card_pool.hpp"
#include "device/cuda_code.hpp"
#include "store/key_columns.hpp"
#include "store/case_columns.hpp"
#include "util/input_error.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace kb {
namespace {

using Key = std::vector<std::string>;

struct HandlesHash {
  template <typename Handles>
  std::size_t operator()(const Handles& handles) const {
    std::size_t h = 0xcbf29ce484222325ull;
    for (const std::uint32_t x : handles) h = (h ^ x) * 0x100000001b3ull;
    return h;
  }
};

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

PivotCell cell_of(const ResultRecord& row, const Metric& metric) {
  PivotCell cell;
  const auto value = metric_value(row, metric);
  if (!row.ok() || !value) {
    cell.state = PivotCell::State::not_ok;
    cell.status = row.ok() ? std::string("no ") + metric_name(metric) : row.status_text();
    return cell;
  }
  cell.status = row.status_text();
  cell.state = PivotCell::State::ok;
  cell.value = *value;
  // The `noise` column bounds the median time; an energy's own uncertainty is not measured, so
  // only the spread between cards counts for it.
  const auto& noise = row.noise;
  const bool timed = metric != Metric::energy && metric != Metric::efficiency && !metric.is_counter();
  cell.noise = timed && noise && *noise > 0 ? *noise : 0;
  cell.time_us = row.median_us.value_or(0);
  return cell;
}

// The latest rows of one case in one column, one per card, as one cell: the median over the cards
// that passed, else the latest failure.
PivotCell pooled_cell(const RowsView& rows,
                      const std::map<std::string, std::size_t>& latest_of_card,
                      const Metric& metric) {
  std::vector<CardValue> passed;
  std::optional<std::size_t> latest_passed, latest_failed;
  for (const auto& [card, index] : latest_of_card) {
    const PivotCell cell = cell_of(rows[index], metric);
    const bool ok = cell.state == PivotCell::State::ok;
    auto& latest = ok ? latest_passed : latest_failed;
    if (!latest || is_later(rows, index, *latest)) latest = index;
    if (ok) passed.push_back({cell.value, cell.noise});
  }
  if (passed.empty()) {
    PivotCell cell = cell_of(rows[*latest_failed], metric);
    cell.source = latest_failed;
    return cell;
  }
  const Pooled pooled = pool(std::move(passed));
  PivotCell cell;
  cell.state = PivotCell::State::ok;
  cell.status = status_name(CaseStatus::ok);
  cell.value = pooled.value;
  cell.noise = pooled.noise;
  cell.spread = pooled.spread;
  cell.cards = pooled.cards;
  cell.source = latest_passed;
  cell.time_us = rows[*latest_passed].median_us.value_or(0);
  return cell;
}

// The rows of one table before pivoting: key -> column -> the row to show.
using Grid = std::map<Key, std::map<std::string, PivotCell>, NaturalKeyLess>;

// Against the baseline column, or (ladder) against the column before.
void fill_speedups(PivotTable& table, const Metric& metric, bool ladder) {
  table.geomean.assign(table.columns.size(), std::nullopt);
  std::vector<double> log_sum(table.columns.size(), 0);
  std::vector<std::size_t> count(table.columns.size(), 0);
  for (auto& row : table.rows) {
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      if (c == table.baseline || (ladder && c == 0)) continue;
      const PivotCell& base = row.cells[ladder ? c - 1 : table.baseline];
      PivotCell& cell = row.cells[c];
      if (base.state != PivotCell::State::ok || cell.state != PivotCell::State::ok) continue;
      // A counter may be 0 (no bank conflicts): no ratio to it.
      if (!(base.value > 0 && cell.value > 0)) continue;
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

// Puts the table's columns (and their cells) in the order given: order[i] is the old index of
// the new i-th column.
void permute(PivotTable& table, const std::vector<std::size_t>& order) {
  const auto apply = [&](auto& values) {
    auto original = values;
    for (std::size_t i = 0; i < order.size(); ++i) values[i] = original[order[i]];
  };
  apply(table.columns);
  apply(table.cards);
  for (auto& row : table.rows) apply(row.cells);
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
  permute(table, permutation);
}

PivotTable pivot(const std::string& title, std::vector<std::string> key_columns, const Grid& grid,
                 const std::map<std::string, std::set<std::string>>& cards_of_column) {
  PivotTable table;
  table.title = title;
  table.key_columns = std::move(key_columns);
  for (const auto& [column, cards] : cards_of_column) {
    table.columns.push_back(column);
    table.cards.push_back(cards.size());
  }
  std::vector<std::size_t> order(table.columns.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return natural_less(table.columns[a], table.columns[b]);
  });
  permute(table, order);
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
  if (text == "device") return CompareBy::device;
  if (text == "run") return CompareBy::run;
  if (text == "plugin") return CompareBy::plugin;
  throw InputError("unknown --by '" + text + "' (gpu, device, run or plugin)");
}

PivotTable without_constant_keys(PivotTable table) {
  drop_constant_keys(table.key_columns, table.rows);
  return table;
}

std::size_t key_index(const PivotTable& table, const std::string& column) {
  const std::size_t at = key_column(table.key_columns, column.c_str());
  if (at == table.key_columns.size()) throw std::logic_error("no key column '" + column + "'");
  return at;
}

namespace {

// What tells the cases of a table apart: --by gpu and --by device make the GPU the column, --by
// plugin the plugin (each family its own table, each plugin's configuration chosen afterwards).
CaseColumns key_columns_of(CompareBy by) {
  switch (by) {
    case CompareBy::gpu:
    case CompareBy::device: return kComparedCase.without({CaseColumn::gpu});
    case CompareBy::run: break;
    case CompareBy::plugin:
      return kComparedCase.without(kConfiguration | CaseColumns{CaseColumn::family, CaseColumn::plugin});
  }
  return kComparedCase;
}

// The code of each plugin in each column (plugin -> column -> codes).
using CodesOfPlugin = std::map<std::string, std::map<std::string, std::vector<std::string>>>;

// Two `code` cells of code built differently: one JIT-compiled, or made by different compilers.
std::optional<bool> differ_in_build(const std::string& code, const std::string& other) {
  if (jit_compiled(code) != jit_compiled(other)) return true;
  const std::string maker = code_made_by(code), other_maker = code_made_by(other);
  if (!maker.empty() && !other_maker.empty() && maker != other_maker) return false;
  return std::nullopt;
}

// Each plugin's first difference between a column and the column its speed-ups are against.
std::vector<CodeDifference> code_differences(const PivotTable& table, bool ladder,
                                             const CodesOfPlugin& codes) {
  std::vector<CodeDifference> differences;
  for (const auto& [plugin, by_column] : codes) {
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      if (!ladder && c == table.baseline) continue;
      if (ladder && c == 0) continue;
      const std::string& against = table.columns[ladder ? c - 1 : table.baseline];
      const auto mine = by_column.find(table.columns[c]);
      const auto theirs = by_column.find(against);
      if (mine == by_column.end() || theirs == by_column.end()) continue;
      std::optional<CodeDifference> found;
      for (const auto& code : mine->second) {
        for (const auto& other : theirs->second) {
          if (const auto jit = differ_in_build(code, other); jit && !found) {
            found = CodeDifference{plugin, table.columns[c], code, against, other, *jit};
          }
        }
      }
      if (found) differences.push_back(*found);
    }
  }
  return differences;
}

std::vector<KernelsDifference> kernels_differences(const PivotTable& table, bool ladder,
                                                   RowsView rows) {
  std::vector<KernelsDifference> differences;
  const std::size_t plugin_at = key_index(table, "plugin");
  for (const PivotRow& row : table.rows) {
    std::string case_text;
    for (std::size_t k = 0; k < row.key.size(); ++k) {
      if (k == plugin_at || row.key[k].empty()) continue;
      case_text += (case_text.empty() ? "" : " ") + row.key[k];
    }
    for (std::size_t c = ladder ? 1 : 0; c < table.columns.size(); ++c) {
      if (!ladder && c == table.baseline) continue;
      const std::size_t against = ladder ? c - 1 : table.baseline;
      const PivotCell& mine = row.cells[c];
      const PivotCell& theirs = row.cells[against];
      if (mine.state != PivotCell::State::ok || theirs.state != PivotCell::State::ok) continue;
      const std::string kernels = rows[*mine.source].kernels.str();
      const std::string other = rows[*theirs.source].kernels.str();
      if (kernels.empty() || other.empty() || kernels == other) continue;
      differences.push_back({row.key[plugin_at], case_text, table.columns[c], kernels,
                             table.columns[against], other});
    }
  }
  return differences;
}

}  // namespace

Comparison compare(RowsView all_rows, const CompareRequest& request) {
  const Metric metric = request.metric;
  // A family that never reports the metric (no GFLOP/s for a transpose) has nothing to compare.
  std::set<std::string> families_with_metric;
  for (const auto& row : all_rows) {
    if (row.ok() && metric_value(row, metric)) families_with_metric.insert(row.family);
  }
  if (families_with_metric.empty()) {
    throw InputError(std::string("no ok row reports ") + metric_name(metric));
  }
  const std::vector<Text> gpus =
      gpu_labels(all_rows, request.by == CompareBy::device ? GpuGrouping::device : GpuGrouping::model);

  // Latest row per (table, key, column, block, card): for --by plugin the block is chosen
  // afterwards, and the cards of a column are pooled.
  using LatestOfCard = std::map<std::string, std::size_t>;
  std::map<std::string, std::map<std::pair<Key, std::string>, std::map<std::string, LatestOfCard>>>
      latest;
  std::map<std::string, std::map<std::string, std::set<std::string>>> cards_of_column;  // per table
  const CaseColumns key_columns = key_columns_of(request.by);
  bool any_refereed_by_family = false;
  std::set<std::string> self_refereed;
  std::map<std::string, KernelFileRows> kernel_files;
  const bool by_gpu = request.by == CompareBy::gpu || request.by == CompareBy::device;
  std::map<std::string, std::vector<std::string>> codes_of_column;
  CodesOfPlugin codes_of_plugin;
  const auto add_once = [](std::vector<std::string>& list, const std::string& item) {
    if (!item.empty() && std::find(list.begin(), list.end(), item) == list.end()) {
      list.push_back(item);
    }
  };
  // Rows are grouped by the handles of their texts (util/interned_text.hpp) before any text is
  // compared: of each case, column, block and card only the latest row makes a cell, and a
  // history of a million rows holds a few thousand such groups.
  std::unordered_set<std::uint32_t> metric_families;
  for (const auto& family : families_with_metric) metric_families.insert(Text(family).id());
  const std::vector<CaseColumn> key_list = key_columns.list();
  std::unordered_map<std::vector<std::uint32_t>, std::size_t, HandlesHash> latest_of_group;
  std::unordered_set<std::array<std::uint32_t, 4>, HandlesHash> seen;  // codes, cards, plugins
  std::vector<std::uint32_t> handles;
  const auto first_time = [&](std::array<std::uint32_t, 4> of) { return seen.insert(of).second; };
  const auto column_of = [&](std::size_t i) -> const Text& {
    const ResultRecord& row = all_rows[i];
    return request.by == CompareBy::run      ? row.run_id
           : request.by == CompareBy::plugin ? row.plugin
                                             : gpus[i];
  };
  // Tags keep the sets of `seen` apart.
  enum : std::uint32_t { kCodeOfColumn, kCodeOfPlugin, kCard, kSelfRefereed };
  for (std::size_t i = 0; i < all_rows.size(); ++i) {
    const ResultRecord& row = all_rows[i];
    if (!metric_families.count(row.family.id())) continue;
    if (!row.kernel_file.empty() || !row.kernel_sha256.empty()) {
      KernelFileRows& k = kernel_files[row.plugin];
      k.plugin = row.plugin;
      add_once(k.files, row.kernel_file);
      add_once(k.sha256s, row.kernel_sha256);
    }
    if (row.refereed_by_family()) {
      any_refereed_by_family = true;
    } else if (first_time({kSelfRefereed, row.plugin.id(), 0, 0})) {
      self_refereed.insert(row.plugin);
    }
    const Text& column = column_of(i);
    const std::uint32_t table = request.by == CompareBy::plugin ? row.family.id() : 0;
    if (by_gpu && row.ok()) {
      if (first_time({kCodeOfColumn, column.id(), row.code.id(), 0})) {
        add_once(codes_of_column[column], row.code);
      }
      if (first_time({kCodeOfPlugin, row.plugin.id(), column.id(), row.code.id()})) {
        add_once(codes_of_plugin[row.plugin][column], row.code);
      }
    }
    // Every column is known by its cards, a host plugin's by none (its rows ran on no card).
    const Text& card = row.gpu_uuid;
    if (first_time({kCard, table, column.id(), card.id()})) {
      const std::string table_name = request.by == CompareBy::plugin ? row.family.str() : "";
      auto& cards = cards_of_column[table_name][column];
      if (!card.empty()) cards.insert(card);
    }
    handles.clear();
    handles.push_back(table);
    for (const CaseColumn c : key_list) {
      handles.push_back(c == CaseColumn::gpu ? gpus[i].id() : row.cell(c).id());
    }
    handles.push_back(column.id());
    if (request.by == CompareBy::plugin) {
      handles.push_back(row.block.id());
      handles.push_back(row.params.id());
    }
    handles.push_back(card.id());
    const auto [held, added] = latest_of_group.try_emplace(handles, i);
    if (!added && is_later(all_rows, i, held->second)) held->second = i;
  }
  for (const auto& [group, i] : latest_of_group) {
    const ResultRecord& row = all_rows[i];
    const Key key = key_cells(row, key_columns, gpus[i]);
    const std::string table = request.by == CompareBy::plugin ? row.family.str() : "";
    // --by plugin: a plugin's configuration (its block and parameters) is chosen afterwards.
    const std::string block = request.by != CompareBy::plugin ? ""
                              : row.params.empty()            ? row.block.str()
                              : row.block == "-"              ? row.params.str()
                                                              : row.block + " " + row.params;
    // Two configurations may read as one block ("-" with "x", "x" without parameters).
    auto& held = latest[table][{key, column_of(i)}][block];
    const auto found = held.find(row.gpu_uuid);
    if (found == held.end() || is_later(all_rows, i, found->second)) held[row.gpu_uuid] = i;
  }

  Comparison comparison;
  comparison.by = request.by;
  comparison.metric = metric;
  comparison.ladder = request.ladder;
  if (any_refereed_by_family) {
    comparison.self_refereed.assign(self_refereed.begin(), self_refereed.end());
  }
  for (auto& [plugin, rows] : kernel_files) comparison.kernel_files.push_back(std::move(rows));
  for (const auto& [title, cases] : latest) {
    Grid grid;
    for (const auto& [key_and_column, by_block] : cases) {
      // Across blocks (--by plugin): the best ok block, else the latest failure.
      std::optional<PivotCell> chosen;
      for (const auto& [block, latest_of_card] : by_block) {
        PivotCell cell = pooled_cell(all_rows, latest_of_card, metric);
        const bool ok = cell.state == PivotCell::State::ok;
        const bool chosen_ok = chosen && chosen->state == PivotCell::State::ok;
        // A counter's block is the fastest one: the counter says why that one is fast.
        const bool improves = metric.is_counter() ? cell.time_us < chosen->time_us
                                                  : better(metric, cell.value, chosen->value);
        const bool take = !chosen || (ok && (!chosen_ok || improves)) ||
                          (!ok && !chosen_ok && is_later(all_rows, *cell.source, *chosen->source));
        if (!take) continue;
        if (request.by == CompareBy::plugin && block != "-") cell.block = block;
        chosen = std::move(cell);
      }
      grid[key_and_column.first][key_and_column.second] = *chosen;
    }
    comparison.tables.push_back(pivot(title, key_columns.names(), grid, cards_of_column[title]));
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
  }
  if (!baseline_found) {
    throw InputError("unknown baseline '" + request.baseline + "'; the columns are " + join(known));
  }
  if (by_gpu) {
    const PivotTable& table = comparison.tables.front();
    for (const auto& column : table.columns) {
      const auto found = codes_of_column.find(column);
      if (found != codes_of_column.end() && !found->second.empty()) {
        comparison.codes.push_back({column, found->second});
      }
    }
    comparison.built_differently = code_differences(table, request.ladder, codes_of_plugin);
  }
  if (request.by != CompareBy::plugin) {
    comparison.kernels_changed =
        kernels_differences(comparison.tables.front(), request.ladder, all_rows);
  }
  // With one column there is nothing to summarize: every plugin would read "baseline".
  if (request.by != CompareBy::plugin && comparison.tables.front().columns.size() > 1) {
    comparison.per_plugin = summarize_plugins(comparison.tables.front());
  }
  return comparison;
}

}  // namespace kb
