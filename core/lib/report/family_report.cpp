#include "report/family_report.hpp"

#include "device/counters.hpp"
#include "report/comparison_format.hpp"
#include "report/gnuplot.hpp"
#include "report/plot_stem.hpp"
#include "util/markdown_table.hpp"
#include "util/number_text.hpp"
#include "util/natural_order.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace kb {
namespace {

using Align = MarkdownTable::Align;

// "8192x4096" -> 33554432: the x axis position of a shape.
double elements(const std::string& shape) {
  double product = 1;
  std::size_t start = 0;
  while (start <= shape.size()) {
    const auto end = std::min(shape.find('x', start), shape.size());
    product *= std::strtod(shape.substr(start, end - start).c_str(), nullptr);
    start = end + 1;
  }
  return product;
}

// A row of the family's pivot: one case (data type, op, shape, cache state) on one GPU model.
struct Case {
  const PivotRow* row;
  std::string model, dtype, op, shape, cache;
  std::size_t model_rank;  // the model's place in gpu_models' order (host labels after them)
};

bool case_order(const Case& a, const Case& b) {
  // The models of one size side by side.
  if (std::tie(a.dtype, a.op, a.cache) != std::tie(b.dtype, b.op, b.cache)) {
    return std::tie(a.dtype, a.op, a.cache) < std::tie(b.dtype, b.op, b.cache);
  }
  if (a.shape != b.shape) return natural_less(a.shape, b.shape);
  return a.model_rank < b.model_rank;
}

// The leading cells of a case's line in a headline table.
struct LeadingColumns {
  bool op, cache;
  std::vector<std::string> header() const {
    std::vector<std::string> h = {"dtype"};
    if (op) h.push_back("op");
    if (cache) h.push_back("cache");
    for (const char* column : {"shape", "GPU model"}) h.push_back(column);
    return h;
  }
  std::vector<std::string> cells(const Case& c) const {
    std::vector<std::string> out = {c.dtype};
    if (op) out.push_back(c.op);
    if (cache) out.push_back(c.cache);
    for (const auto* text : {&c.shape, &c.model}) out.push_back(*text);
    return out;
  }
};

// Throughput families: the best plugin other than the reference, and how close it comes.
std::string best_plugin_table(const std::vector<Case>& cases, const PivotTable& table,
                              const FamilyView& view, const LeadingColumns& columns,
                              const std::vector<GpuModel>& models) {
  const auto reference = std::find(table.columns.begin(), table.columns.end(),
                                   view.reference_plugin) -
                         table.columns.begin();
  auto header = columns.header();
  const std::size_t left = header.size() + 2;
  header.insert(header.end(), {"best plugin", "block", view.unit,
                                view.reference_plugin.empty() ? "of copy" : "of " + view.reference_plugin});
  MarkdownTable out(header, left);
  for (const Case& c : cases) {
    std::optional<std::size_t> best;
    for (std::size_t p = 0; p < table.columns.size(); ++p) {
      const PivotCell& cell = c.row->cells[p];
      if (static_cast<std::ptrdiff_t>(p) == reference || cell.state != PivotCell::State::ok) continue;
      if (!best || better(view.metric, cell.value, c.row->cells[*best].value)) best = p;
    }
    if (!best) continue;
    const PivotCell& cell = c.row->cells[*best];
    std::optional<double> fraction;
    const GpuModel* model = find_model(models, c.model);
    if (static_cast<std::size_t>(reference) < table.columns.size() &&
        c.row->cells[reference].state == PivotCell::State::ok) {
      fraction = cell.value / c.row->cells[reference].value;
    } else if (view.metric == Metric::gbps && model && model->copy_gbps) {
      fraction = cell.value / *model->copy_gbps;
    }
    auto line = columns.cells(c);
    line.push_back(table.columns[*best]);
    line.push_back(cell.block.empty() ? "-" : cell.block);
    line.push_back(format_measure(cell.value));
    line.push_back(fraction ? format_measure(*fraction) : "—");
    out.add_row(std::move(line));
  }
  return out.str();
}

// Latency families: every plugin, and what its metrics say it did.
std::string latency_table(const std::vector<Case>& cases, const PivotTable& table,
                          const FamilyView& view, const LeadingColumns& columns,
                          const RowsView& rows) {
  auto header = columns.header();
  std::vector<Align> alignment(header.size() + 2, Align::left);
  header.insert(header.end(), {"plugin", "block", view.unit, "metrics"});
  alignment.insert(alignment.end(), {Align::right, Align::left});
  MarkdownTable out(header, alignment);
  for (const Case& c : cases) {
    for (std::size_t p = 0; p < table.columns.size(); ++p) {
      const PivotCell& cell = c.row->cells[p];
      if (cell.state != PivotCell::State::ok) continue;
      auto line = columns.cells(c);
      line.push_back(table.columns[p]);
      line.push_back(cell.block.empty() ? "-" : cell.block);
      line.push_back(format_measure(cell.value));
      line.push_back(rows[*cell.source].metrics);
      out.add_row(std::move(line));
    }
  }
  return out.str();
}

// Rows measured with `kbench run --metrics`: every plugin's counters at its best block, beside its
// headline figure, so the table says why one plugin is faster than another.
std::string counters_table(const std::vector<Case>& cases, const PivotTable& table,
                           const FamilyView& view, const LeadingColumns& columns,
                           const RowsView& rows) {
  std::vector<std::string> labels;  // every counter the family's rows hold, in first-seen order
  const auto counters_of = [&](const PivotCell& cell) {
    return cell.state == PivotCell::State::ok && cell.source
               ? parse_counters_text(rows[*cell.source].counters)
               : std::vector<std::pair<std::string, double>>{};
  };
  for (const Case& c : cases) {
    for (const PivotCell& cell : c.row->cells) {
      for (const auto& [label, value] : counters_of(cell)) {
        if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
      }
    }
  }
  if (labels.empty()) return "";
  auto header = columns.header();
  std::vector<Align> alignment(header.size() + 2, Align::left);
  header.insert(header.end(), {"plugin", "block", view.unit});
  header.insert(header.end(), labels.begin(), labels.end());
  alignment.resize(header.size(), Align::right);
  MarkdownTable out(header, alignment);
  for (const Case& c : cases) {
    for (std::size_t p = 0; p < table.columns.size(); ++p) {
      const PivotCell& cell = c.row->cells[p];
      const auto values = counters_of(cell);
      if (values.empty()) continue;
      auto line = columns.cells(c);
      line.push_back(table.columns[p]);
      line.push_back(cell.block.empty() ? "-" : cell.block);
      line.push_back(format_measure(cell.value));
      for (const auto& label : labels) {
        const auto found = std::find_if(values.begin(), values.end(),
                                        [&](const auto& v) { return v.first == label; });
        // Counts whole (bytes, conflicts, instructions), rates as the other figures.
        const bool whole = found != values.end() && found->second == std::floor(found->second) &&
                           std::abs(found->second) < 1e15;
        line.push_back(found == values.end() ? "—"
                       : whole              ? fixed_text(found->second, 0)
                                            : format_measure(found->second));
      }
      out.add_row(std::move(line));
    }
  }
  return "\nWhy: the hardware counters of one launch of each plugin at its best block (`kbench run "
         "--metrics`, the `counters` column; docs/measurement.md names each).\n\n" +
         out.str();
}

}  // namespace

FamilyView view_of(const FamilyInfo* described, RowsView rows) {
  std::string headline = described ? described->headline : "";
  if (headline.empty()) {
    const auto counts = [&](OptionalNumber ResultRecord::*measure) {
      return std::any_of(rows.begin(), rows.end(),
                         [&](const ResultRecord& r) { return (r.*measure).value_or(0) > 0; });
    };
    headline = counts(&ResultRecord::gflops) ? "gflops"
               : counts(&ResultRecord::gbps) ? "gbps"
                                             : "time";
  }
  const std::string reference_plugin = described ? described->reference : "";
  if (headline == "gflops") return {Metric::gflops, "GFLOP/s", reference_plugin};
  if (headline == "time") return {Metric::time, "us per launch", reference_plugin};
  return {Metric::gbps, "GB/s", reference_plugin};
}

std::string family_section(const std::string& family, const FamilyView& view,
                           RowsView rows, const std::vector<GpuModel>& models,
                           const std::string& dir, std::vector<std::string>& scripts) {
  const Comparison comparison = compare(rows, {CompareBy::plugin, view.metric, ""});
  const PivotTable& table = comparison.tables.front();
  std::vector<Case> cases;
  std::set<std::string> caches;
  bool has_op = false;
  for (const PivotRow& row : table.rows) {
    Case c{&row, row.key[key_index(table, "gpu")], row.key[key_index(table, "dtype")],
           row.key[key_index(table, "op")], row.key[key_index(table, "shape")],
           row.key[key_index(table, "cache")], models.size()};
    for (std::size_t m = 0; m < models.size(); ++m) {
      if (models[m].label == c.model) c.model_rank = m;
    }
    caches.insert(c.cache);
    has_op = has_op || !c.op.empty();
    cases.push_back(std::move(c));
  }
  std::stable_sort(cases.begin(), cases.end(), case_order);
  const LeadingColumns columns{has_op, caches.size() > 1};

  std::string md = "\n## " + markdown_cell(family) + "\n\n";
  if (view.metric == Metric::time) {
    md += "Each plugin's " + std::string(view.unit) + " (median time) at its best block, and its "
          "`metrics`: what the launch did.\n\n" + latency_table(cases, table, view, columns, rows);
  } else if (view.reference_plugin.empty()) {
    md += std::string("Per size and GPU model, the best plugin, its ") + view.unit +
          " at its best block" +
          (view.metric == Metric::gbps ? ", and the fraction of the model's measured copy "
                                         "bandwidth it reaches"
                                       : "") +
          " (no plugin describes this family's reference).\n\n" +
          best_plugin_table(cases, table, view, columns, models);
  } else {
    md += "Per size and GPU model, the best plugin other than " + view.reference_plugin + ", its " +
          view.unit + " at its best block, and the fraction of " + view.reference_plugin +
          " it reaches: of " + view.reference_plugin + " at the same size" +
          (view.metric == Metric::gbps ? " where it ran, else of the model's measured copy "
                                         "bandwidth"
                                       : "") +
          ".\n\n" + best_plugin_table(cases, table, view, columns, models);
  }
  if (!comparison.self_refereed.empty()) {
    std::string plugins;
    for (const auto& plugin : comparison.self_refereed) {
      plugins += (plugins.empty() ? "" : ", ") + markdown_cell(plugin);
    }
    md += "\nNot like for like: rows of " + plugins + " were refereed by the plugin itself (ABI "
          "version 1 or 2: its own inputs, work count and check), beside rows the family "
          "refereed (`referee` column).\n";
  }
  md += kernel_files_markdown(comparison.kernel_files);

  md += counters_table(cases, table, view, columns, rows);

  // A plugin's colour is the same in every panel and PNG; the plugins with the most cases (the
  // goal sweeps' sizes) take the first colours, so that they are never the ones that repeat.
  std::vector<std::size_t> by_cases;
  for (std::size_t p = 0; p < table.columns.size(); ++p) {
    if (table.columns[p] != view.reference_plugin) by_cases.push_back(p);
  }
  const auto cases_of = [&](std::size_t p) {
    return std::count_if(cases.begin(), cases.end(), [&](const Case& c) {
      return c.row->cells[p].state == PivotCell::State::ok;
    });
  };
  std::stable_sort(by_cases.begin(), by_cases.end(),
                   [&](std::size_t a, std::size_t b) { return cases_of(a) > cases_of(b); });
  std::vector<std::size_t> colour_of(table.columns.size());
  for (std::size_t i = 0; i < by_cases.size(); ++i) colour_of[by_cases[i]] = i;
  std::map<std::string, std::set<std::string>> cards_of;  // per model: the family's cards
  const std::vector<Text> labels = gpu_labels(rows);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].gpu_uuid.empty()) cards_of[labels[i]].insert(rows[i].gpu_uuid);
  }

  // One PNG per model, a panel per data type, op and cache state with more than one size.
  using PanelKey = std::tuple<std::string, std::string, std::string>;  // dtype, op, cache
  std::map<std::string, std::map<PanelKey, LinePlot>> panels;           // per model
  std::map<std::string, std::size_t> ranks;
  for (const Case& c : cases) {
    ranks[c.model] = c.model_rank;
    LinePlot& panel = panels[c.model][{c.dtype, c.op, c.cache}];
    if (panel.series.empty()) {
      panel.title = c.dtype + (c.op.empty() ? "" : ", " + c.op) +
                    (columns.cache ? ", " + c.cache + " cache" : "");
      panel.x_label = "problem size (shape; elements on a log scale)";
      panel.y_label = view.metric == Metric::gbps     ? "bandwidth (GB/s)"
                      : view.metric == Metric::gflops ? "throughput (GFLOP/s)"
                                                      : "time per launch (us)";
      for (std::size_t p = 0; p < table.columns.size(); ++p) {
        PlotSeries series;
        series.title = table.columns[p];
        if (series.title == view.reference_plugin) {
          series.style = PlotSeries::Style::reference;
          series.title += " (the reference)";
        } else {
          series.colour = colour_of[p];
        }
        panel.series.push_back(std::move(series));
      }
      const GpuModel* model = find_model(models, c.model);
      if (view.metric == Metric::gbps && model && model->copy_gbps) {
        panel.ceiling = {"measured copy bandwidth (" + format_measure(*model->copy_gbps) + " GB/s)",
                         *model->copy_gbps};
      }
    }
    const double x = elements(c.shape);
    if (std::none_of(panel.x_ticks.begin(), panel.x_ticks.end(),
                     [&](const auto& tick) { return tick.first == x; })) {
      panel.x_ticks.emplace_back(x, c.shape);
    }
    for (std::size_t p = 0; p < table.columns.size(); ++p) {
      const PivotCell& cell = c.row->cells[p];
      if (cell.state == PivotCell::State::ok) panel.series[p].points.emplace_back(x, cell.value);
    }
  }
  std::vector<std::pair<std::size_t, std::string>> plots;  // model rank, markdown
  for (auto& [model_label, by_key] : panels) {
    PanelPlot plot;
    plot.name = plot_stem("", family + "_" + model_label);
    const std::size_t cards = cards_of[model_label].size();
    plot.title = family + " on " + model_label +
                 (cards > 1 ? " (median of " + std::to_string(cards) + " cards)" : "") +
                 ": best block per plugin and size";
    for (auto& [key, panel] : by_key) {
      if (panel.x_ticks.size() < 2) continue;  // one size is no curve
      std::sort(panel.x_ticks.begin(), panel.x_ticks.end());
      for (auto& series : panel.series) std::sort(series.points.begin(), series.points.end());
      plot.panels.push_back(std::move(panel));
    }
    if (plot.panels.empty()) continue;
    scripts.push_back(write_plot(plot, dir));
    plots.emplace_back(ranks[model_label], "![" + markdown_cell(plot.title) + "](" + plot.name + ".png)\n\n");
  }
  std::sort(plots.begin(), plots.end());
  md += "\n";
  for (const auto& [rank, markdown] : plots) md += markdown;
  return md;
}

}  // namespace kb
