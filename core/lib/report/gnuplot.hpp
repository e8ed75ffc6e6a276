// Plots drawn by gnuplot (pngcairo): each plot is written as NAME.gp (the script) and NAME.dat
// (its data) into a folder, so the PNGs can be redrawn or restyled there by hand, and gnuplot is
// run on the scripts when it is installed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kb {

struct PlotSeries {
  // reference: a dashed black line to compare against; marked: points alone, large and red, over
  // the lines (what a reader must see, such as a regression).
  enum class Style { measured, reference, marked };
  std::string title;  // empty: not in the legend
  Style style = Style::measured;
  std::vector<std::pair<double, double>> points;  // (x, y), sorted by x
  // Index into the palette, so that a plugin keeps its colour across plots; unset: the series'
  // place among the measured series of its plot.
  std::optional<std::size_t> colour;
};

struct LinePlot {
  std::string name;  // file stem: NAME.gp, NAME.dat, NAME.png
  std::string title, x_label, y_label;
  bool log_x = true;        // sizes: a log axis; times: a linear one
  bool y_from_zero = true;  // false: the y axis spans the values (ratios near 1)
  std::vector<std::pair<double, std::string>> x_ticks;  // positions and their labels
  std::vector<PlotSeries> series;
  std::optional<std::pair<std::string, double>> ceiling;  // a horizontal line: title, y
};

// Line plots stacked in one PNG, each with its own title, axes and legend: one family on one GPU
// model, a panel per data type and op.
struct PanelPlot {
  std::string name, title;
  std::vector<LinePlot> panels;
};

// Marked points over lines on log-log axes, e.g. a roofline: kernels as points under the roofs.
struct ScatterPlot {
  struct Line {
    std::string title;
    std::vector<std::pair<double, double>> points;  // a polyline
    std::size_t colour = 0;                         // index into the palette
    int dash = 1;                                   // gnuplot's dash type: 1 solid, 2 dashed...
  };
  struct Marks {
    std::string title;
    std::size_t colour = 0;
    int point_type = 7;  // gnuplot's: 7 filled circle, 5 filled square, 9 filled triangle...
    std::vector<std::pair<double, double>> points;
    // One per point, written beside it (moved up or down where labels would overlap); an empty
    // one: no label.
    std::vector<std::string> labels;
  };
  std::string name, title, x_label, y_label;
  std::vector<Line> lines;
  std::vector<Marks> marks;
};

struct BarPlot {
  std::string name, title, y_label;
  std::vector<std::string> categories;            // one cluster of bars each
  std::vector<std::string> series_titles;         // one bar per cluster each
  std::vector<std::vector<std::optional<double>>> values;  // [category][series]
};

// Each returns the script's file name (relative to `dir`).
std::string write_plot(const LinePlot& plot, const std::string& dir);
std::string write_plot(const PanelPlot& plot, const std::string& dir);
std::string write_plot(const ScatterPlot& plot, const std::string& dir);
std::string write_plot(const BarPlot& plot, const std::string& dir);

// Runs gnuplot in `dir` on the scripts. False when gnuplot is not installed; a runtime_error when
// gnuplot fails on a script (its own messages are on standard error).
bool run_gnuplot(const std::string& dir, const std::vector<std::string>& scripts);

}  // namespace kb
