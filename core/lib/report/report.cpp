#include "report/report.hpp"

#include "analysis/case_bound.hpp"
#include "analysis/comparison.hpp"
#include "analysis/gpu_model.hpp"
#include "analysis/roofline.hpp"
#include "analysis/scaling.hpp"
#include "device/cuda_code.hpp"
#include "report/comparison_format.hpp"
#include "report/family_report.hpp"
#include "report/gnuplot.hpp"
#include "report/plot_stem.hpp"
#include "util/input_error.hpp"
#include "util/markdown_table.hpp"
#include "util/output_file.hpp"
#include "util/terminal_text.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>

namespace kb {
namespace {

using Align = MarkdownTable::Align;

const char* kMissing = "—";

std::string optional_measure(const std::optional<double>& value) {
  return value ? format_measure(*value) : kMissing;
}

std::string case_text(const std::string& dtype, const std::string& op, const std::string& shape) {
  return dtype + (op.empty() ? "" : " " + op) + " " + shape;
}

std::string models_table(const std::vector<GpuModel>& models) {
  // Which code ran, where the rows say (files from before the `code` column do not).
  const bool codes = std::any_of(models.begin(), models.end(),
                                 [](const GpuModel& m) { return !m.codes.empty(); });
  std::vector<std::string> header = {"GPU model", "compute capability", "SMs", "cards",
                                     "SM clock (MHz)", "FP32 peak (GFLOP/s)", "theoretical GB/s",
                                     "measured copy GB/s", "runs", "rows"};
  if (codes) header.insert(header.begin() + 2, "code");
  MarkdownTable table(header, codes ? 3 : 2);
  for (const auto& m : models) {
    std::string copy = optional_measure(m.copy_gbps);
    if (m.copy_gbps && m.cards.size() > 1) {
      copy += " (" + format_measure(m.copy_min) + "–" + format_measure(m.copy_max) + ")";
    }
    const std::string clock =
        m.clock_mhz ? format_measure(*m.clock_mhz) + (m.nominal_clock ? " (nominal)" : "") : kMissing;
    std::vector<std::string> cells = {m.label, m.compute_capability, std::to_string(m.sm_count),
                                      std::to_string(m.cards.size()), clock,
                                      optional_measure(m.peak_gflops("fp32")),
                                      optional_measure(m.theoretical_gbps), copy,
                                      std::to_string(m.runs.size()), std::to_string(m.rows)};
    if (codes) {
      std::string code;
      for (const auto& c : m.codes) code += (code.empty() ? "" : ", ") + c;
      cells.insert(cells.begin() + 2, code.empty() ? kMissing : code);
    }
    table.add_row(std::move(cells));
  }
  return table.str();
}

// Where two models' rows ran code built differently (JIT on one side, or other compilers): what
// `kbench compare --by gpu` says of the same rows.
std::string built_differently_note(const RowsView& gpu_rows, const std::vector<GpuModel>& models) {
  if (models.size() < 2) return "";
  const Comparison comparison =
      compare(gpu_rows, {CompareBy::gpu, Metric::time, models.front().label, {}, false});
  std::string text;
  for (const auto& d : comparison.built_differently) text += "- " + code_difference_text(d) + "\n";
  return text.empty() ? "" : "\nBuilt differently (`code` column): the speed-ups between these "
                             "models weigh the compilers as well as the GPUs.\n\n" + text;
}

// The models the peak table lacks: said once, where their missing roofs would otherwise puzzle.
std::string unknown_peaks_note(const std::vector<GpuModel>& models) {
  std::string text;
  for (const auto& m : models) {
    if (m.peaks_known() || !parse_compute_capability(m.compute_capability)) continue;
    text += "\nNo peak rates for " + m.label + " (compute capability " + m.compute_capability +
            "): kbench's table (`core/lib/device/peak_rates.cpp`) lacks its architecture, so its "
            "FLOP/s have no roof, no fraction of peak and no predicted scaling.\n";
  }
  return text;
}

std::string cards_table(const std::vector<GpuModel>& models) {
  MarkdownTable table({"GPU model", "UUID", "measured copy GB/s", "runs", "rows"}, 2);
  for (const auto& m : models) {
    for (const auto& card : m.cards) {
      table.add_row({m.label, card.uuid, optional_measure(card.copy_gbps),
                     std::to_string(card.runs.size()), std::to_string(card.rows)});
    }
  }
  return table.str();
}

// Per family and GPU model, the plugin case nearest its roof: the measured copy bandwidth for a
// memory-bound family, the attainable FLOP/s at the case's intensity for a compute-bound one; and,
// where the rows hold an energy, the work that case did per joule.
bool has_energy(const RowsView& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const ResultRecord& row) {
    return metric_value(row, Metric::efficiency).has_value();
  });
}

std::string best_per_family(const std::map<std::string, RowsView>& families,
                            const std::map<std::string, FamilyView>& views,
                            const std::vector<GpuModel>& models, bool energy, bool& above_roof) {
  std::vector<std::string> header = {"family", "GPU model", "best plugin", "case", "block",
                                     "value", "of roof"};
  if (energy) header.push_back("per joule");
  MarkdownTable table(header, 5);
  for (const auto& [family, rows] : families) {
    const FamilyView& view = views.at(family);
    if (view.metric == Metric::time) continue;  // a latency has no roof
    const Comparison comparison = compare(rows, {CompareBy::plugin, view.metric, ""});
    const PivotTable& pivot = comparison.tables.front();
    // Per case key and plugin: its most efficient block's work per joule, pooled over the cards.
    std::map<std::pair<std::vector<std::string>, std::string>, PivotCell> per_joule;
    if (has_energy(rows)) {
      for (const PivotTable& table : compare(rows, {CompareBy::plugin, Metric::efficiency, ""}).tables) {
        for (const PivotRow& row : table.rows) {
          for (std::size_t c = 0; c < table.columns.size(); ++c) {
            per_joule[{row.key, table.columns[c]}] = row.cells[c];
          }
        }
      }
    }
    for (const auto& model : models) {
      std::optional<double> best_fraction;
      std::vector<std::string> best_line;
      for (const PivotRow& row : pivot.rows) {
        if (row.key[key_index(pivot, "gpu")] != model.label) continue;
        for (std::size_t c = 0; c < pivot.columns.size(); ++c) {
          const PivotCell& cell = row.cells[c];
          if (pivot.columns[c] == view.reference_plugin || cell.state != PivotCell::State::ok) continue;
          const ResultRecord& source = rows[*cell.source];
          const std::string bound = case_bound(source);
          if (bound == "L2") continue;  // DRAM does not bound it
          const std::optional<double> roof = view.metric == Metric::gbps
                                                 ? model.copy_gbps
                                                 : attainable_gflops(source, model);
          if (!roof) continue;
          const double fraction = cell.value / *roof;
          if (best_fraction && fraction <= *best_fraction) continue;
          best_fraction = fraction;
          best_line = {family, model.label, pivot.columns[c],
                       case_text(source.dtype, source.op, source.shape),
                       cell.block.empty() ? "-" : cell.block,
                       format_measure(cell.value) + " " + view.unit, format_measure(fraction)};
          if (energy) {
            const auto found = per_joule.find({row.key, pivot.columns[c]});
            const bool known = found != per_joule.end() && found->second.state == PivotCell::State::ok;
            best_line.push_back(known ? format_measure(found->second.value) +
                                            (moves_bytes(bound) ? " GB/J" : " GFLOP/J")
                                      : kMissing);
          }
        }
      }
      if (!best_fraction) continue;
      above_roof = above_roof || *best_fraction > 1;
      table.add_row(std::move(best_line));
    }
  }
  return table.str();
}

std::string efficiency_text(const std::optional<double>& efficiency) {
  return efficiency ? format_measure(*efficiency) : kMissing;
}

std::string scaling_section(const ModelScaling& scaling, const std::vector<GpuModel>& models,
                            const std::string& dir, std::vector<std::string>& scripts) {
  const GpuModel& base = *find_model(models, scaling.baseline);
  const GpuModel& other = *find_model(models, scaling.other);
  std::set<std::string> bounds;
  for (const auto& c : scaling.cases) bounds.insert(c.bound);
  std::string predictions;
  for (const auto& bound : bounds) {
    std::string text;
    if (bound == "memory" && scaling.copy_ratio) {
      text = "memory-bound " + format_speedup(*scaling.copy_ratio) + " (measured copy bandwidth, " +
             format_measure(*other.copy_gbps) + " / " + format_measure(*base.copy_gbps) + " GB/s)";
    } else if (const auto o = other.peak_gflops(bound), b = base.peak_gflops(bound); o && b) {
      text = bound + " " + format_speedup(*o / *b) + " (peak, " + format_measure(*o) + " / " +
             format_measure(*b) + " GFLOP/s)";
    }
    if (!text.empty()) predictions += (predictions.empty() ? "" : "; ") + text;
  }
  MarkdownTable table({"plugin", "bound", "scaled", "cases", "measured", "predicted", "efficiency",
                       "largest case", "its measured", "its efficiency"},
                      {Align::left, Align::left, Align::left, Align::right, Align::right,
                       Align::right, Align::right, Align::left, Align::right, Align::right});
  BarPlot plot;
  plot.name = plot_stem("scaling", scaling.other);
  plot.title = "Speed-up of " + scaling.other + " over " + scaling.baseline +
               " per plugin: measured and predicted by its bound";
  plot.y_label = "speed-up (> 1: faster on " + scaling.other + ")";
  plot.series_titles = {"measured", "predicted"};
  for (const auto& p : scaling.plugins) {
    const std::string verdict = !p.efficiency      ? kMissing
                                : p.as_predicted() ? "as predicted"
                                : *p.efficiency < 1 ? "below"
                                                    : "above";
    const CaseScaling& largest = p.largest;
    table.add_row({p.plugin, p.bound, verdict, std::to_string(p.cases), format_speedup(p.measured),
                   p.predicted ? format_speedup(*p.predicted) : kMissing,
                   efficiency_text(p.efficiency),
                   case_text(largest.dtype, largest.op, largest.shape) +
                       (largest.block == "-" ? "" : " @" + largest.block),
                   format_speedup(largest.measured, largest.within_noise),
                   efficiency_text(largest.efficiency)});
    plot.categories.push_back(p.plugin);
    plot.values.push_back({p.measured, p.predicted});
  }
  scripts.push_back(write_plot(plot, dir));
  return "\n## Scaling: " + markdown_cell(scaling.other) + " vs " + markdown_cell(scaling.baseline) +
         "\n\nPredicted speed-up by bound: " + predictions +
         ".\n\nMeasured: a plugin's time on " + scaling.baseline + " over its time on " +
         scaling.other + ", each the median over the model's cards, as a geometric mean over the "
         "cases both models ran (> 1 = faster on " + scaling.other + "; ~ = inside the noise). "
         "Efficiency: measured / predicted; a plugin scaled as predicted within ±" +
         std::to_string(static_cast<int>(100 * kScalingTolerance)) + "%. An L2-bound case (its "
         "bytes fit in the L2, the cache hot) has no prediction. Plugins furthest from their prediction "
         "first. The largest case (most bytes or flops) is where a kernel is nearest its bound.\n\n" +
         table.str() + "\n![Scaling](" + plot.name + ".png)\n";
}

std::string scaling_cases_table(const ModelScaling& scaling) {
  MarkdownTable table({"plugin", "case", "block", "bound", "measured", "predicted",
                                    "efficiency"},
                                   4);
  for (const auto& c : scaling.cases) {
    table.add_row({c.plugin, case_text(c.dtype, c.op, c.shape), c.block, c.bound,
                   format_speedup(c.measured, c.within_noise),
                   c.predicted ? format_speedup(*c.predicted) : kMissing,
                   efficiency_text(c.efficiency)});
  }
  // One line whatever the models are called: the HTML page reads it as the summary's text.
  return "\n<details><summary>" + markdown_cell(scaling.other) + " vs " +
         markdown_cell(scaling.baseline) + ": " +
         std::to_string(scaling.cases.size()) + " cases</summary>\n\n" + table.str() +
         "\n</details>\n";
}

std::string roofline_section(const Roofline& roofline, const std::string& dir,
                             std::vector<std::string>& scripts) {
  if (roofline.points.empty()) return "";
  ScatterPlot plot;
  plot.name = "roofline";
  plot.title = "Roofline: each plugin's best case per GPU model, under the model's roofs";
  plot.x_label = "arithmetic intensity (FLOP per byte moved)";
  plot.y_label = "achieved GFLOP/s";
  double low = roofline.points.front().intensity, high = low;
  for (const auto& p : roofline.points) {
    low = std::min(low, p.intensity);
    high = std::max(high, p.intensity);
  }
  for (const auto& roofs : roofline.models) {
    for (const auto& [precision, peak] : roofs.peaks) {
      if (roofs.copy_gbps) high = std::max(high, peak / *roofs.copy_gbps);
    }
  }
  low /= 3;
  high *= 3;
  std::vector<std::string> precisions;
  for (const auto& roofs : roofline.models) {
    for (const auto& [precision, peak] : roofs.peaks) {
      if (std::find(precisions.begin(), precisions.end(), precision) == precisions.end()) {
        precisions.push_back(precision);
      }
    }
  }
  std::map<std::string, std::size_t> colour_of;  // per model
  for (std::size_t m = 0; m < roofline.models.size(); ++m) {
    const ModelRoofs& roofs = roofline.models[m];
    colour_of[roofs.model] = m;
    double top = 0;
    for (const auto& [precision, peak] : roofs.peaks) top = std::max(top, peak);
    if (roofs.copy_gbps) {
      const double end = top > 0 ? top / *roofs.copy_gbps : high;
      plot.lines.push_back({roofs.model + ": copy " + format_measure(*roofs.copy_gbps) + " GB/s",
                            {{low, *roofs.copy_gbps * low}, {end, *roofs.copy_gbps * end}}, m, 1});
    }
    for (const auto& [precision, peak] : roofs.peaks) {
      const double start = roofs.copy_gbps ? peak / *roofs.copy_gbps : low;
      const auto dash = 2 + std::find(precisions.begin(), precisions.end(), precision) -
                        precisions.begin();
      plot.lines.push_back({roofs.model + ": " + precision + " peak " + format_measure(peak) +
                                " GFLOP/s",
                            {{start, peak}, {high, peak}}, m, static_cast<int>(dash)});
    }
  }
  // The models' points of one plugin at one intensity often coincide: they are labelled once, at
  // the highest of them. Intensities within about 5% count as one.
  const auto column = [](const RooflinePoint& p) {
    return std::make_pair(p.plugin, std::lround(std::log10(p.intensity) * 50));
  };
  std::map<std::pair<std::string, long>, const RooflinePoint*> highest;
  for (const auto& p : roofline.points) {
    const auto*& held = highest[column(p)];
    if (!held || p.gflops > held->gflops) held = &p;
  }
  std::vector<std::string> families;
  std::map<std::pair<std::string, std::string>, ScatterPlot::Marks> marks;  // (model, family)
  const int point_types[] = {7, 5, 9, 11, 13};
  for (const auto& p : roofline.points) {
    if (std::find(families.begin(), families.end(), p.family) == families.end()) {
      families.push_back(p.family);
    }
    auto& set = marks[{p.model, p.family}];
    if (set.points.empty()) {
      set.title = p.model + ": " + p.family;
      set.colour = colour_of[p.model];
      const auto f = std::find(families.begin(), families.end(), p.family) - families.begin();
      set.point_type = point_types[f % 5];
    }
    set.points.emplace_back(p.intensity, p.gflops);
    set.labels.push_back(highest[column(p)] == &p
                             ? p.plugin.substr(p.plugin.find('/') + 1)
                             : "");
  }
  for (auto& [key, set] : marks) plot.marks.push_back(std::move(set));
  scripts.push_back(write_plot(plot, dir));

  MarkdownTable table({"GPU model", "plugin", "case", "block", "bound", "FLOP/byte",
                                    "GFLOP/s", "roof", "of roof"},
                                   5);
  for (const auto& p : roofline.points) {
    table.add_row({p.model, p.plugin, case_text(p.dtype, p.op, p.shape),
                   p.block.empty() ? "-" : p.block, p.bound, format_measure(p.intensity),
                   format_measure(p.gflops), optional_measure(p.roof),
                   p.roof ? format_measure(p.gflops / *p.roof) : kMissing});
  }
  std::string without;
  for (const auto& plugin : roofline.without_flops) without += (without.empty() ? "" : ", ") + plugin;
  return "\n## Roofline\n\nEach plugin's best case (most GFLOP/s) on each GPU model: x = its "
         "arithmetic intensity (flops / bytes of one launch), y = the GFLOP/s it reached. The lines "
         "are each model's roofs: measured copy bandwidth x intensity, and the peak of each "
         "precision the points use (SMs x FLOP per clock per SM x SM clock). Roof: the lower of "
         "the two at the case's intensity.\n\n![Roofline](roofline.png)\n\n" + table.str() +
         (without.empty() ? ""
                          : "\nNot drawn, as their cases do no arithmetic (flops = 0): " + without +
                                ".\n");
}

}  // namespace

std::vector<std::string> write_report(RowsView rows,
                                      const FamilyTable& described, const std::string& dir) {
  create_output_folder(dir, "report");

  // A family is reported when it has an ok row with its measure.
  std::map<std::string, RowsView> families;
  for (auto& [family, positions] : positions_by_family(rows, false)) {
    families.emplace(family, rows.subset(positions));
  }
  std::map<std::string, FamilyView> views;
  for (const auto& [family, family_rows] : families) {
    views.emplace(family, view_of(described.find(family), family_rows));
  }
  for (auto it = families.begin(); it != families.end();) {
    const Metric metric = views.at(it->first).metric;
    const bool measured = std::any_of(it->second.begin(), it->second.end(), [&](const ResultRecord& r) {
      return r.ok() && metric_value(r, metric);
    });
    it = measured ? std::next(it) : families.erase(it);
  }
  if (families.empty()) throw InputError("no ok row with GB/s, GFLOP/s or a time to report");

  const std::vector<GpuModel> models = gpu_models(rows);
  std::set<std::string> run_ids;
  std::size_t cards = 0;
  for (const auto& row : rows) run_ids.insert(row.run_id);
  for (const auto& model : models) cards += model.cards.size();
  std::vector<std::string> scripts;
  std::string md = "# kbench report\n\n" + std::to_string(rows.size()) + " rows from " +
                   std::to_string(run_ids.size()) + " run(s) on " + std::to_string(models.size()) +
                   " GPU model(s), " + std::to_string(cards) + " card(s). Each case counts with "
                   "each card's latest row, and a model's value is the median over its cards.\n";
  if (!models.empty()) {
    md += "\n## GPU models\n\n" + models_table(models) + unknown_peaks_note(models) +
          built_differently_note(rows.subset(on_a_gpu(rows)), models);
  }

  std::map<std::string, RowsView> gpu_families;  // the rows that ran on a GPU
  for (auto& [family, positions] : positions_by_family(rows, true)) {
    if (families.count(family)) gpu_families.emplace(family, rows.subset(positions));
  }
  const bool energy = std::any_of(gpu_families.begin(), gpu_families.end(),
                                  [](const auto& family) { return has_energy(family.second); });
  bool above_roof = false;
  const std::string best = best_per_family(gpu_families, views, models, energy, above_roof);
  md += "\n## Best per family\n\nPer family and GPU model, the plugin case nearest its roof (other "
        "than the family's reference line): the measured copy bandwidth for memory-bound cases, "
        "the attainable FLOP/s at the case's intensity (see the roofline) for compute-bound "
        "ones. Cases whose data fit in the L2 with a hot cache are left out: DRAM does not bound "
        "them." +
        (energy ? std::string(" Per joule (runs with `--energy-window`): the plugin's GB or GFLOP "
                              "per joule of board energy at that case, at its most efficient block.")
                : std::string()) +
        "\n\n" + best;
  if (above_roof) {
    md += "\nAbove 1: a kernel that only reads outran the copy, which reads and writes; or the "
          "plugin's math is faster than the precision its rows name in `peak` (tensor cores where "
          "`peak` says fp32, or fp64).\n";
  }
  const std::vector<ModelScaling> scalings = expected_scaling(rows, models);
  for (const auto& scaling : scalings) md += scaling_section(scaling, models, dir, scripts);
  md += roofline_section(build_roofline(rows, models), dir, scripts);

  md += "\n# Details\n";
  if (!models.empty()) md += "\n## GPU cards\n\n" + cards_table(models);
  if (!scalings.empty()) {
    md += "\n## Scaling per case\n\nAs in the scaling tables, per case (`kbench compare CSV... "
          "--by gpu` shows the times).\n";
    for (const auto& scaling : scalings) md += scaling_cases_table(scaling);
  }
  for (const auto& [family, family_rows] : families) {
    md += family_section(family, views.at(family), family_rows, models, dir, scripts);
  }

  const std::string path = dir + "/report.md";
  // Whatever a cell held is shown as text, by a terminal or a markdown viewer alike.
  write_output_file(path, terminal_text(md, /*keep_newlines=*/true), "report");
  return scripts;
}

}  // namespace kb
