#include "report/history_report.hpp"

#include "report/comparison_format.hpp"
#include "report/family_report.hpp"
#include "report/gnuplot.hpp"
#include "report/plot_stem.hpp"
#include "report/verdict_format.hpp"
#include "store/key_columns.hpp"
#include "util/markdown_table.hpp"
#include "util/number_text.hpp"
#include "util/output_file.hpp"
#include "util/terminal_text.hpp"
#include "util/statistics.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace kb {
namespace {

// "2026-11-21 23:59": a run's label on the axis.
std::string tick_label(const HistoryRun& run) {
  std::string text = run.started_text.substr(0, 16);
  std::replace(text.begin(), text.end(), 'T', ' ');
  return text.empty() ? run.run_id : text;
}

// At most this many run labels on the x axis: each takes about 90 pixels of the plot's width,
// slanted, beside the legend.
constexpr std::size_t kMaxRunLabels = 10;

// The runs evenly spaced in the order they started (x = 0, 1, 2...), not at their times: runs a
// minute apart would share one stripe of the plot and nights a day apart leave gaps around a run
// started by hand. Labelled every so many runs, the first and the last always.
std::vector<std::pair<double, std::string>> run_ticks(const History& h) {
  const std::size_t runs = h.runs.size();
  const std::size_t step = (runs + kMaxRunLabels - 1) / kMaxRunLabels;
  std::vector<std::pair<double, std::string>> ticks;
  for (std::size_t k = 0; k < runs; k += step) {
    if (k > 0 && k + step / 2 >= runs - 1 && k != runs - 1) continue;  // too near the last
    ticks.emplace_back(static_cast<double>(k), tick_label(h.runs[k]));
  }
  if (ticks.back().first != static_cast<double>(runs - 1)) {
    ticks.emplace_back(static_cast<double>(runs - 1), tick_label(h.runs.back()));
  }
  return ticks;
}

LinePlot family_plot(const std::string& family, const History& h,
                     const std::vector<std::size_t>& cases) {
  const std::size_t plugin = key_column(h.key_columns, "plugin");
  LinePlot plot;
  plot.name = plot_stem("history", family);
  plot.title = family + ": each case's median time per run, over its median across the runs";
  plot.x_label = "run, in the order they started (UTC), evenly spaced";
  plot.y_label = "time / the case's median over the runs";
  plot.log_x = false;
  plot.y_from_zero = false;
  plot.x_ticks = run_ticks(h);
  std::vector<std::string> plugins;  // in order of first appearance: each one's colour
  PlotSeries regressions;
  regressions.title = "slower (the gate failed it)";
  regressions.style = PlotSeries::Style::marked;
  for (std::size_t index : cases) {
    const CaseHistory& c = h.cases[index];
    std::vector<double> medians;
    for (const auto& m : c.median) {
      if (m) medians.push_back(*m);
    }
    if (medians.empty()) continue;
    const double typical = summarize(medians).median;
    auto at = std::find(plugins.begin(), plugins.end(), c.key[plugin]);
    PlotSeries series;
    // One legend entry per plugin: the first of its cases.
    if (at == plugins.end()) {
      series.title = c.key[plugin];
      at = plugins.insert(plugins.end(), c.key[plugin]);
    }
    series.colour = static_cast<std::size_t>(at - plugins.begin());
    for (std::size_t k = 0; k < h.runs.size(); ++k) {
      if (!c.median[k]) continue;
      const double x = static_cast<double>(k);
      series.points.emplace_back(x, *c.median[k] / typical);
      if (c.slower[k]) regressions.points.emplace_back(x, *c.median[k] / typical);
    }
    plot.series.push_back(std::move(series));
  }
  if (!regressions.points.empty()) plot.series.push_back(std::move(regressions));
  return plot;
}

std::string regressions_table(const History& shown, const std::vector<Regression>& regressions) {
  if (regressions.empty()) return "No regression.\n";
  const std::size_t family = key_column(shown.key_columns, "family");
  std::vector<std::string> header = {"run"};
  for (std::size_t i = 0; i < shown.key_columns.size(); ++i) {
    if (i != family) header.push_back(shown.key_columns[i]);
  }
  const std::size_t left = header.size();
  header.insert(header.end(), {"before us", "after us", "change", "p"});
  MarkdownTable table(header, left);
  for (const auto& r : regressions) {
    std::vector<std::string> cells = {shown.runs[r.run].run_id};
    const auto& key = shown.cases[r.case_index].key;
    for (std::size_t i = 0; i < key.size(); ++i) {
      if (i != family) cells.push_back(key[i]);
    }
    cells.insert(cells.end(), {format_measure(r.before_us), format_measure(r.after_us),
                               format_change(r.effect), r.p_value ? format_p(*r.p_value) : ""});
    table.add_row(std::move(cells));
  }
  return table.str();
}

}  // namespace

std::vector<std::string> write_history(History shown, const GateRequest& request,
                                       const std::string& dir) {
  create_output_folder(dir, "report");
  drop_constant_keys(shown.key_columns, shown.cases);
  const std::size_t family = key_column(shown.key_columns, "family");

  std::map<std::size_t, std::size_t> regressions_per_run;
  for (const auto& r : shown.regressions) ++regressions_per_run[r.run];
  std::ostringstream md;
  const std::string rule = "at least " + percent_text(request.min_effect) + " slower with p < " +
                           significant_text(request.alpha);
  md << "# Nightly history\n\n"
     << shown.runs.size() << " runs of " << shown.cases.size()
     << " cases, oldest first. A line of a plot is one case: its median time in each run (the "
        "median of its repetitions' medians, the cards of a GPU model pooled) over its median "
        "across the runs, so that every case of a family shares one axis; the lines of one plugin "
        "share its colour. A red point is a regression: the gate (`kbench compare`, each run "
        "against the one before) failed the case as slower ("
     << rule << ").\n\n";
  MarkdownTable runs({"run", "started (UTC)", "cases", "regressions"}, 2);
  for (std::size_t k = 0; k < shown.runs.size(); ++k) {
    runs.add_row({shown.runs[k].run_id, shown.runs[k].started_text,
                  std::to_string(shown.runs[k].cases), std::to_string(regressions_per_run[k])});
  }
  md << runs.str();

  std::map<std::string, std::vector<std::size_t>> cases_of_family;
  for (std::size_t i = 0; i < shown.cases.size(); ++i) {
    cases_of_family[shown.cases[i].key[family]].push_back(i);
  }
  std::vector<std::string> scripts;
  for (const auto& [name, cases] : cases_of_family) {
    const LinePlot plot = family_plot(name, shown, cases);
    scripts.push_back(write_plot(plot, dir));
    std::vector<Regression> own;
    for (const auto& r : shown.regressions) {
      if (shown.cases[r.case_index].key[family] == name) own.push_back(r);
    }
    md << "\n## " << markdown_cell(name) << "\n\n![" << markdown_cell(name) << "](" << plot.name
       << ".png)\n\n"
       << regressions_table(shown, own);
  }
  const std::string path = dir + "/history.md";
  // The stream let go of before the text is escaped: a long history's page is hundreds of MB.
  const std::string text = md.str();
  md = std::ostringstream();
  // Whatever a cell held is shown as text, by a terminal or a markdown viewer alike.
  write_output_file(path, terminal_text(text, /*keep_newlines=*/true), "report");
  return scripts;
}

}  // namespace kb
