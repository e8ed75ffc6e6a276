#include "report/comparison_format.hpp"

#include "util/export_csv.hpp"
#include "util/markdown_table.hpp"
#include "util/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kb {
namespace {

const char* kMissing = "—";

const char* dimension(CompareBy by) {
  switch (by) {
    case CompareBy::gpu: return "GPU model";
    case CompareBy::device: return "device";
    case CompareBy::run: return "run";
    case CompareBy::plugin: return "plugin";
  }
  return "";
}

std::string markdown_cell(const PivotCell& cell) {
  switch (cell.state) {
    case PivotCell::State::missing: return kMissing;
    case PivotCell::State::not_ok: return cell.status;
    case PivotCell::State::ok: break;
  }
  std::string text = format_measure(cell.value);
  if (cell.cards > 1) text += " ±" + formatted_text("%.2g", 100 * cell.spread / 2) + "%";
  if (cell.speedup) text += " (" + format_speedup(*cell.speedup, cell.within_noise) + ")";
  if (!cell.block.empty()) text += " @" + cell.block;
  return text;
}

std::string geomean_cell(const std::optional<double>& geomean, bool is_baseline) {
  if (is_baseline) return "baseline";
  return geomean ? format_speedup(*geomean) : kMissing;
}

std::string column_header(const PivotTable& table, std::size_t c) {
  std::string header = table.columns[c];
  if (table.cards[c] > 1) header += ", " + std::to_string(table.cards[c]) + " cards";
  return c == table.baseline ? header + " (baseline)" : header;
}

std::string markdown_table(const PivotTable& shown) {
  const PivotTable table = without_constant_keys(shown);
  std::vector<std::string> header = table.key_columns;
  std::vector<MarkdownTable::Align> alignment(header.size(), MarkdownTable::Align::left);
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    header.push_back(column_header(table, c));
    alignment.push_back(MarkdownTable::Align::right);
  }
  MarkdownTable out(header, alignment);
  for (const auto& row : table.rows) {
    std::vector<std::string> cells = row.key;
    for (const auto& cell : row.cells) cells.push_back(markdown_cell(cell));
    out.add_row(std::move(cells));
  }
  std::vector<std::string> last(table.key_columns.size());
  last.front() = "geometric mean";
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    last.push_back(geomean_cell(table.geomean[c], c == table.baseline));
  }
  out.add_row(std::move(last));
  return out.str();
}

std::string plugin_summary_table(const Comparison& comparison) {
  const PivotTable& table = comparison.tables.front();
  std::vector<std::string> header = {"plugin"};
  std::vector<MarkdownTable::Align> alignment = {MarkdownTable::Align::left};
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    header.push_back(column_header(table, c));
    alignment.push_back(MarkdownTable::Align::right);
  }
  MarkdownTable out(header, alignment);
  for (const auto& summary : comparison.per_plugin) {
    std::vector<std::string> cells = {summary.plugin};
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      cells.push_back(geomean_cell(summary.geomean[c], c == table.baseline));
    }
    out.add_row(std::move(cells));
  }
  return out.str();
}

}  // namespace

std::string format_measure(double value) {
  const double magnitude = std::abs(value);
  if (magnitude >= 1000) return formatted_text("%.0f", value);
  if (magnitude >= 100) return formatted_text("%.1f", value);
  if (magnitude >= 10) return formatted_text("%.2f", value);
  return formatted_text("%.3f", value);
}

std::string format_speedup(double speedup, bool within_noise) {
  return (within_noise ? "~" : "") + formatted_text("%.2fx", speedup);
}

std::string kernel_files_markdown(const std::vector<KernelFileRows>& kernel_files) {
  if (kernel_files.empty()) return "";
  const auto joined = [](const std::vector<std::string>& items, const char* separator,
                         std::size_t prefix) {
    std::string text;
    for (const auto& item : items) {
      text += (text.empty() ? "" : separator) +
              markdown_cell(prefix > 0 ? item.substr(0, prefix) : item);
    }
    return text;
  };
  std::string text = "\nFrom kernel files (`--kernel`; `kernel_file`, `kernel_sha256` and "
                     "`kernel_compiler` columns):\n\n";
  for (const auto& k : kernel_files) {
    text += "- " + markdown_cell(k.plugin) + ": " +
            (k.files.empty() ? std::string("(no file named)") : joined(k.files, ", ", 0));
    if (k.sha256s.size() == 1) {
      text += ", sha256 " + joined(k.sha256s, ", ", 12);
    } else if (k.sha256s.size() > 1) {
      text += ", edited between these rows (sha256 " + joined(k.sha256s, ", then ", 12) +
              "): its rows hold different code";
    }
    text += "\n";
  }
  return text;
}

std::string code_difference_text(const CodeDifference& d) {
  return d.plugin + " ran " + d.code + " on " + d.column + " and " + d.against + " on " +
         d.against_column + " (" +
         (d.jit_on_one_side ? "JIT-compiled from PTX on one side" : "different compilers") + ")";
}

std::string codes_markdown(const Comparison& comparison) {
  if (comparison.codes.empty()) return "";
  std::string text = "\nThe code each column ran (`code` column): ";
  for (std::size_t c = 0; c < comparison.codes.size(); ++c) {
    text += (c ? "; " : "") + markdown_cell(comparison.codes[c].column) + ": ";
    for (std::size_t i = 0; i < comparison.codes[c].codes.size(); ++i) {
      text += (i ? ", " : "") + markdown_cell(comparison.codes[c].codes[i]);
    }
  }
  text += ".\n";
  if (!comparison.built_differently.empty()) {
    text += "\nBuilt differently: these speed-ups weigh the compilers as well as the GPUs.\n\n";
    for (const auto& d : comparison.built_differently) {
      text += "- " + markdown_cell(code_difference_text(d)) + "\n";
    }
  }
  return text;
}

// At most this many cases are named; the rest are counted.
constexpr std::size_t kKernelsListed = 20;

std::string kernels_changed_markdown(const std::vector<KernelsDifference>& changed) {
  if (changed.empty()) return "";
  std::string text =
      "\nOther kernels ran (`kernels` column, per CUPTI): these speed-ups weigh what each launch "
      "ran as well as how fast.\n\n";
  for (std::size_t i = 0; i < changed.size() && i < kKernelsListed; ++i) {
    const KernelsDifference& d = changed[i];
    text += "- " + markdown_cell(d.plugin + " " + d.case_text + ": " + d.kernels + " on " +
                                 d.column + ", " + d.against + " on " + d.against_column) +
            "\n";
  }
  if (changed.size() > kKernelsListed) {
    text += "- and " + std::to_string(changed.size() - kKernelsListed) + " more\n";
  }
  return text;
}

std::string comparison_markdown(const Comparison& comparison) {
  const std::string against = comparison.ladder
                                  ? std::string("the ") + dimension(comparison.by) + " to its left"
                                  : std::string("the baseline ") + dimension(comparison.by);
  std::string text = "Each cell: the " + metric_unit(comparison.metric) +
                     " of the case's latest row, and in parentheses the speed-up vs " + against +
                     " (> 1 = better; ~ = inside the measured noise). " + kMissing +
                     " = no row; a status = the case did not pass.";
  const bool pooled = std::any_of(
      comparison.tables.begin(), comparison.tables.end(), [](const PivotTable& table) {
        return std::any_of(table.cards.begin(), table.cards.end(), [](auto n) { return n > 1; });
      });
  if (pooled) {
    text += " Where a column ran on several cards: the median over each card's latest row, "
            "± half the range between the cards (counted in the noise).";
  }
  text += "\n";
  for (const auto& table : comparison.tables) {
    text += "\n";
    if (!table.title.empty()) {
      text += "### " + markdown_cell(table.title) +
              (comparison.ladder ? " (ladder from " : " (baseline ") +
              markdown_cell(table.columns[table.baseline]) + ")\n\n";
    }
    text += markdown_table(table);
  }
  if (!comparison.per_plugin.empty()) {
    text += "\nGeometric mean of the speed-up per plugin, over the cases it shares with the "
            "baseline:\n\n" + plugin_summary_table(comparison);
  }
  if (!comparison.self_refereed.empty()) {
    std::string plugins;
    for (const auto& plugin : comparison.self_refereed) {
      plugins += (plugins.empty() ? "" : ", ") + markdown_cell(plugin);
    }
    text += "\nNot like for like: rows of " + plugins +
            " were refereed by the plugin itself (ABI version 1 or 2: its own inputs, work count "
            "and check), beside rows their family refereed (`referee` column).\n";
  }
  text += kernel_files_markdown(comparison.kernel_files);
  text += codes_markdown(comparison);
  text += kernels_changed_markdown(comparison.kernels_changed);
  return text;
}

// One table for every family: the union of the columns, a `family` key for --by plugin, and the
// geometric means as rows marked `geomean` in the leading `row` column.
std::string comparison_csv(const Comparison& comparison) {
  const bool by_plugin = comparison.by == CompareBy::plugin;
  std::vector<PivotTable> tables;
  for (const auto& table : comparison.tables) tables.push_back(without_constant_keys(table));
  std::vector<std::string> key_columns;
  if (by_plugin) key_columns.push_back("family");
  for (const auto& table : tables) {
    for (const auto& k : table.key_columns) {
      if (std::find(key_columns.begin(), key_columns.end(), k) == key_columns.end()) {
        key_columns.push_back(k);
      }
    }
  }
  std::vector<std::string> columns;
  for (const auto& table : tables) {
    columns.insert(columns.end(), table.columns.begin(), table.columns.end());
  }
  const std::string metric = metric_name(comparison.metric);
  std::vector<std::string> header = {"row"};
  header.insert(header.end(), key_columns.begin(), key_columns.end());
  for (const auto& column : columns) {
    for (const std::string& part : {metric, std::string("speedup"), std::string("within_noise"),
                                     std::string("cards"), std::string("spread")}) {
      header.push_back(column + " " + part);
    }
    if (by_plugin) header.push_back(column + " block");
  }
  const std::size_t per_column = by_plugin ? 6 : 5;
  std::string text = export_csv_line(header);

  std::size_t first_column = 0;  // where this table's columns start among all the columns
  for (const auto& table : tables) {
    const auto key_cell = [&](std::vector<std::string>& line, const std::string& key,
                              const std::string& value) {
      const auto at = std::find(key_columns.begin(), key_columns.end(), key) - key_columns.begin();
      line[1 + at] = value;
    };
    const auto blank_line = [&](const char* kind) {
      std::vector<std::string> line(1 + key_columns.size() + per_column * columns.size());
      line[0] = kind;
      if (by_plugin) key_cell(line, "family", table.title);
      return line;
    };
    const auto value_at = [&](std::size_t c, std::size_t part) {
      return 1 + key_columns.size() + per_column * (first_column + c) + part;
    };
    for (const auto& row : table.rows) {
      auto line = blank_line("case");
      for (std::size_t k = 0; k < table.key_columns.size(); ++k) {
        key_cell(line, table.key_columns[k], row.key[k]);
      }
      for (std::size_t c = 0; c < row.cells.size(); ++c) {
        const PivotCell& cell = row.cells[c];
        line[value_at(c, 0)] = cell.state == PivotCell::State::ok ? formatted_text("%.6g", cell.value)
                               : cell.state == PivotCell::State::missing ? "missing"
                                                                         : cell.status;
        if (cell.speedup) {
          line[value_at(c, 1)] = formatted_text("%.4f", *cell.speedup);
          line[value_at(c, 2)] = cell.within_noise ? "1" : "0";
        }
        if (cell.state == PivotCell::State::ok) {
          line[value_at(c, 3)] = std::to_string(cell.cards);
          line[value_at(c, 4)] = formatted_text("%.4f", cell.spread);
        }
        if (by_plugin) line[value_at(c, 5)] = cell.block;
      }
      text += export_csv_line(line);
    }
    const auto geomean_line = [&](const std::vector<std::optional<double>>& geomean,
                                  const std::string& plugin) {
      auto line = blank_line("geomean");
      if (!by_plugin) key_cell(line, "plugin", plugin);
      for (std::size_t c = 0; c < geomean.size(); ++c) {
        if (geomean[c]) line[value_at(c, 1)] = formatted_text("%.4f", *geomean[c]);
      }
      text += export_csv_line(line);
    };
    for (const auto& summary : comparison.per_plugin) geomean_line(summary.geomean, summary.plugin);
    geomean_line(table.geomean, by_plugin ? "" : "all");
    first_column += table.columns.size();
  }
  return text;
}

}  // namespace kb
