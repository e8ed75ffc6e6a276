// Plots drawn by gnuplot (pngcairo): each plot is written as NAME.gp (the script) and NAME.dat
// (its data) into a folder, so the PNGs can be redrawn or restyled there by hand, and gnuplot is
// run on the scripts when it is installed.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kb {

struct PlotSeries {
  enum class Style { measured, reference };  // reference: a dashed black line to compare against
  std::string title;
  Style style = Style::measured;
  std::vector<std::pair<double, double>> points;  // (x, y), sorted by x
};

struct LinePlot {
  std::string name;  // file stem: NAME.gp, NAME.dat, NAME.png
  std::string title, x_label, y_label;
  std::vector<std::pair<double, std::string>> x_ticks;  // positions and their labels
  std::vector<PlotSeries> series;
  std::optional<std::pair<std::string, double>> ceiling;  // a horizontal line: title, y
};

struct BarPlot {
  std::string name, title, y_label;
  std::vector<std::string> categories;            // one cluster of bars each
  std::vector<std::string> series_titles;         // one bar per cluster each
  std::vector<std::vector<std::optional<double>>> values;  // [category][series]
};

// Each returns the script's file name (relative to `dir`).
std::string write_plot(const LinePlot& plot, const std::string& dir);
std::string write_plot(const BarPlot& plot, const std::string& dir);

// Runs gnuplot in `dir` on the scripts. False when gnuplot is not installed; a runtime_error when
// gnuplot fails on a script (its own messages are on standard error).
bool run_gnuplot(const std::string& dir, const std::vector<std::string>& scripts);

}  // namespace kb
