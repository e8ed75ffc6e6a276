#include "report/gnuplot.hpp"

#include "report/gnuplot_text.hpp"
#include "util/output_file.hpp"
#include "util/write_error.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <stdexcept>

namespace kb {
namespace {

constexpr int kNotInstalled = 127;  // the shell's "command not found" exit code

// Ten colours told apart at a glance (matplotlib's "tab10" without its grey), none of them the
// black of a reference line; a colour comes back after ten plugins, with another point type.
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#393b79"};
constexpr int kPaletteSize = sizeof kPalette / sizeof kPalette[0];

void write_file(const std::string& path, const std::string& text) {
  write_output_file(path, text, "plot file");
}

// Whether a PNG gnuplot wrote is whole: it ends with its IEND chunk. gnuplot says nothing and exits
// 0 when its write fails (a full disk, a file-size limit), leaving the part that fitted.
bool whole_png(const std::string& path) {
  static const char kEnd[] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', '\xae', '\x42', '\x60', '\x82'};
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in || in.tellg() < static_cast<std::streamoff>(sizeof kEnd)) return false;
  char end[sizeof kEnd];
  in.seekg(-static_cast<std::streamoff>(sizeof kEnd), std::ios::end);
  return in.read(end, sizeof end) && std::equal(end, end + sizeof end, kEnd);
}

// The PNG: wide enough for a legend outside the plot area.
std::string terminal(const std::string& name, int width, int height) {
  // `reset`: one gnuplot process draws every script, and a log axis must not leak into the next.
  return "reset\n"
         "set terminal pngcairo size " + std::to_string(width) + "," + std::to_string(height) +
         " enhanced font 'sans,11'\n"
         "set output " + gnuplot_string(name + ".png") + "\n";
}

// Shared by every plot (and every panel): its title, tab-separated data, a grid, the legend.
std::string frame(const std::string& title) {
  return "set title " + gnuplot_string(title) + " noenhanced\n"
         "set datafile separator '\\t'\n"
         "set datafile missing '-'\n"
         "set grid\n"
         "set key outside right top noenhanced\n";
}

std::string plot_command(const std::vector<std::string>& plots) {
  std::string text = "plot ";
  for (std::size_t i = 0; i < plots.size(); ++i) text += (i ? ", \\\n     " : "") + plots[i];
  return text + "\n";
}

const char* colour(std::size_t index) { return kPalette[index % kPaletteSize]; }

// The axes and the plot command of a line plot; its series are appended to `data` as gnuplot
// data blocks, numbered on from `index`.
std::string line_plot_commands(const LinePlot& given, const std::string& data_file,
                               std::ostringstream& data, int& index) {
  // A point no axis can show (a size of 0 on a log axis: a shape that is no size, from a file
  // someone edited; a value not finite) is left out: gnuplot refuses a plot of none it can.
  LinePlot plot = given;
  const auto shown = [&](double x) { return std::isfinite(x) && (!plot.log_x || x > 0); };
  for (auto& s : plot.series) {
    s.points.erase(std::remove_if(s.points.begin(), s.points.end(),
                                  [&](const auto& p) {
                                    return !shown(p.first) || !std::isfinite(p.second);
                                  }),
                   s.points.end());
  }
  plot.x_ticks.erase(std::remove_if(plot.x_ticks.begin(), plot.x_ticks.end(),
                                    [&](const auto& tick) { return !shown(tick.first); }),
                     plot.x_ticks.end());
  std::ostringstream script;
  script << "set xlabel " << gnuplot_string(plot.x_label) << " noenhanced\n"
         << "set ylabel " << gnuplot_string(plot.y_label) << " noenhanced\n"
         << (plot.log_x ? "set logscale x 2\n" : "");
  double low = 0, high = 0;
  bool any = false;
  for (const auto& s : plot.series) {
    for (const auto& [x, y] : s.points) {
      low = any ? std::min(low, y) : y;
      high = any ? std::max(high, y) : y;
      any = true;
    }
  }
  // Kernels an order of magnitude or more apart stay readable only on a log axis.
  if (any && low > 0 && high / low > 30) {
    script << "set logscale y 10\nset format y '%.0s%c'\n";  // 1k, 10k, 100k, 1M
  } else if (plot.y_from_zero) {
    script << "set yrange [0:*]\n";
  }
  if (!plot.x_ticks.empty()) {
    script << "set xtics rotate by -30 noenhanced (";
    for (std::size_t i = 0; i < plot.x_ticks.size(); ++i) {
      script << (i ? ", " : "") << gnuplot_string(plot.x_ticks[i].second) << " " << plot.x_ticks[i].first;
    }
    script << ")\n";
    // Room on both sides, so the end points sit off the frame and a single size still has a range.
    const double first = plot.x_ticks.front().first, last = plot.x_ticks.back().first;
    if (plot.log_x) {
      script << "set xrange [" << first / 1.5 << ":" << last * 1.5 << "]\n";
    } else {
      const double margin = std::max(0.05 * (last - first), 1.0);
      script << "set xrange [" << first - margin << ":" << last + margin << "]\n";
    }
  }
  std::vector<std::string> plots;
  std::size_t measured = 0;
  for (const auto& s : plot.series) {
    if (s.points.empty()) continue;
    for (const auto& [x, y] : s.points) data << x << '\t' << y << '\n';
    data << "\n\n";
    std::string style = "with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black'";
    if (s.style == PlotSeries::Style::marked) style = "with points pt 7 ps 2 lc rgb '#d62728'";
    if (s.style == PlotSeries::Style::measured) {
      const std::size_t c = s.colour.value_or(measured);
      // A colour that comes back (after ten series) comes with another point type and dashes.
      const int point_types[] = {7, 5, 9, 11, 13};
      const std::size_t cycle = c / kPaletteSize;
      style = "with linespoints lw 2 dt " + std::to_string(1 + 2 * (cycle % 2)) + " pt " +
              std::to_string(point_types[cycle % 5]) + " lc rgb '" + colour(c) + "'";
      ++measured;
    }
    plots.push_back(gnuplot_string(data_file) + " index " + std::to_string(index++) + " using 1:2 " +
                    style + (s.title.empty() ? " notitle" : " title " + gnuplot_string(s.title)));
  }
  if (plot.ceiling) {
    plots.push_back(std::to_string(plot.ceiling->second) +
                    " with lines lw 2 dt 3 lc rgb 'gray40' title " + gnuplot_string(plot.ceiling->first));
  }
  if (plots.empty()) {
    // A panel whose cases all failed: said on it, since gnuplot refuses a `plot` of nothing.
    script << "set yrange [0:1]\nset label 1 'no case measured' at graph 0.5, graph 0.5 center\n";
    plots.push_back("NaN notitle");
  }
  script << plot_command(plots);
  return script.str();
}

// Where a scatter plot's labels go: beside their points, spread apart where points of one column
// (about the same x) lie closer than a line of text, so that none overlaps another.
struct PlacedLabel {
  double x, y;     // the point
  double label_y;  // where its label is written, at x * kLabelShift
  std::string text;
  std::size_t colour;
};

constexpr double kLabelShift = 1.15;  // labels start a little right of their point (log x)

std::vector<PlacedLabel> place_labels(const ScatterPlot& plot) {
  std::vector<PlacedLabel> labels;
  double low = 0, high = 0;
  bool any = false;
  const auto extend = [&](double y) {
    low = any ? std::min(low, y) : y;
    high = any ? std::max(high, y) : y;
    any = true;
  };
  for (const auto& line : plot.lines) {
    for (const auto& point : line.points) extend(point.second);
  }
  for (const auto& marks : plot.marks) {
    for (std::size_t i = 0; i < marks.points.size(); ++i) {
      extend(marks.points[i].second);
      if (i < marks.labels.size() && !marks.labels[i].empty()) {
        labels.push_back({marks.points[i].first, marks.points[i].second, marks.points[i].second,
                          marks.labels[i], marks.colour});
      }
    }
  }
  if (labels.empty() || !(low > 0)) return labels;
  // A line of 9-point text is about 1/55 of the plot's height, over the decades the axis spans.
  const double gap = (std::ceil(std::log10(high)) - std::floor(std::log10(low))) / 55;
  std::sort(labels.begin(), labels.end(), [](const PlacedLabel& a, const PlacedLabel& b) {
    return a.x != b.x ? a.x < b.x : a.y < b.y;
  });
  for (std::size_t start = 0; start < labels.size();) {
    std::size_t end = start + 1;
    while (end < labels.size() && labels[end].x < labels[start].x * 1.05) ++end;
    std::vector<double> at;  // log10 of each label's height, the column sorted by y
    std::sort(labels.begin() + start, labels.begin() + end,
              [](const PlacedLabel& a, const PlacedLabel& b) { return a.y < b.y; });
    for (std::size_t i = start; i < end; ++i) at.push_back(std::log10(labels[i].y));
    // Neighbours closer than a line push each other apart, half each, until none are.
    for (int round = 0; round < 200; ++round) {
      bool moved = false;
      for (std::size_t i = 1; i < at.size(); ++i) {
        if (at[i] - at[i - 1] >= gap * 0.999) continue;
        const double middle = (at[i] + at[i - 1]) / 2;
        at[i - 1] = middle - gap / 2;
        at[i] = middle + gap / 2;
        moved = true;
      }
      if (!moved) break;
    }
    for (std::size_t i = start; i < end; ++i) labels[i].label_y = std::pow(10, at[i - start]);
    start = end;
  }
  return labels;
}

}  // namespace

std::string write_plot(const LinePlot& plot, const std::string& dir) {
  std::ostringstream data;
  int index = 0;
  const std::string script = terminal(plot.name, 1200, 650) + frame(plot.title) +
                             line_plot_commands(plot, plot.name + ".dat", data, index);
  write_file(dir + "/" + plot.name + ".dat", data.str());
  write_file(dir + "/" + plot.name + ".gp", script);
  return plot.name + ".gp";
}

std::string write_plot(const PanelPlot& plot, const std::string& dir) {
  std::ostringstream data;
  int index = 0;
  const int rows = static_cast<int>(plot.panels.size());
  std::string script = terminal(plot.name, 1200, 60 + 520 * rows) + "set multiplot layout " +
                       std::to_string(rows) + ",1 title " + gnuplot_string(plot.title) +
                       " noenhanced font ',13'\n";
  for (const auto& panel : plot.panels) {
    // Inside a multiplot `reset` clears the last panel's axes and keeps the terminal.
    script += "reset\n" + frame(panel.title) +
              line_plot_commands(panel, plot.name + ".dat", data, index);
  }
  script += "unset multiplot\n";
  write_file(dir + "/" + plot.name + ".dat", data.str());
  write_file(dir + "/" + plot.name + ".gp", script);
  return plot.name + ".gp";
}

std::string write_plot(const ScatterPlot& given, const std::string& dir) {
  // Log axes both: a point not finite and positive is left out (with its label).
  ScatterPlot plot = given;
  const auto shown = [](const std::pair<double, double>& p) {
    return std::isfinite(p.first) && std::isfinite(p.second) && p.first > 0 && p.second > 0;
  };
  for (auto& line : plot.lines) {
    line.points.erase(std::remove_if(line.points.begin(), line.points.end(),
                                     [&](const auto& p) { return !shown(p); }),
                      line.points.end());
  }
  for (auto& marks : plot.marks) {
    ScatterPlot::Marks kept = marks;
    kept.points.clear();
    kept.labels.clear();
    for (std::size_t i = 0; i < marks.points.size(); ++i) {
      if (!shown(marks.points[i])) continue;
      kept.points.push_back(marks.points[i]);
      if (i < marks.labels.size()) kept.labels.push_back(marks.labels[i]);
    }
    marks = std::move(kept);
  }
  std::ostringstream data, script;
  script << terminal(plot.name, 1500, 850) << frame(plot.title)
         << "set xlabel " << gnuplot_string(plot.x_label) << " noenhanced\n"
         << "set ylabel " << gnuplot_string(plot.y_label) << " noenhanced\n"
         << "set logscale xy 10\n"
         << "set format y '%.0s%c'\n";  // 1k, 10k, 100k: FLOP/s over six decades stay short
  std::vector<std::string> plots;
  int index = 0;
  const auto next_block = [&]() {
    data << "\n\n";
    return gnuplot_string(plot.name + ".dat") + " index " + std::to_string(index++);
  };
  for (const auto& line : plot.lines) {
    if (line.points.empty()) continue;
    for (const auto& [x, y] : line.points) data << x << '\t' << y << '\n';
    plots.push_back(next_block() + " using 1:2 with lines lw 2 dt " + std::to_string(line.dash) +
                    " lc rgb '" + colour(line.colour) + "' title " + gnuplot_string(line.title));
  }
  for (const auto& marks : plot.marks) {
    if (marks.points.empty()) continue;
    for (const auto& [x, y] : marks.points) data << x << '\t' << y << '\n';
    plots.push_back(next_block() + " using 1:2 with points pt " +
                    std::to_string(marks.point_type) + " ps 1.6 lc rgb '" + colour(marks.colour) +
                    "' title " + gnuplot_string(marks.title));
  }
  const std::vector<PlacedLabel> labels = place_labels(plot);
  if (!labels.empty()) {
    // A label moved off its point is joined to it by a thin line.
    for (const auto& l : labels) {
      data << l.x << '\t' << l.y << "\n" << l.x * kLabelShift << '\t' << l.label_y << "\n\n";
    }
    plots.push_back(next_block() + " using 1:2 with lines lw 1 lc rgb 'gray60' notitle");
    for (const auto& l : labels) {
      // `tc rgb variable` reads the colour as a number, 0xRRGGBB.
      data << l.x * kLabelShift << '\t' << l.label_y << '\t' << gnuplot_data_text(l.text) << '\t'
           << std::stol(colour(l.colour) + 1, nullptr, 16) << '\n';
    }
    plots.push_back(next_block() + " using 1:2:3:4 with labels left offset 0.3,0 font ',9' "
                                   "tc rgb variable noenhanced notitle");
  }
  if (plots.empty()) {
    script << "set xrange [1:10]\nset yrange [1:10]\n"
              "set label 1 'no case measured' at graph 0.5, graph 0.5 center\n";
    plots.push_back("NaN notitle");
  }
  script << plot_command(plots);
  write_file(dir + "/" + plot.name + ".dat", data.str());
  write_file(dir + "/" + plot.name + ".gp", script.str());
  return plot.name + ".gp";
}

std::string write_plot(const BarPlot& plot, const std::string& dir) {
  std::ostringstream data, script;
  script << terminal(plot.name, 1200, 750) << frame(plot.title);
  script << "set ylabel " << gnuplot_string(plot.y_label) << " noenhanced\n"
         << "set style data histogram\n"
         << "set style histogram clustered gap 1\n"
         << "set style fill solid 0.8 border -1\n"
         << "set boxwidth 0.9\n"
         // Upright names hang straight down from their bars: long ones stay inside the PNG.
         << "set xtics rotate by 90 right noenhanced\n"
         << "set key outside top center horizontal\n"
         << "set yrange [0:*]\n"
         << "set offsets 0, 0, graph 0.12, 0\n";  // room above the tallest bar for its label
  for (std::size_t c = 0; c < plot.categories.size(); ++c) {
    data << gnuplot_data_text(plot.categories[c]);
    for (const auto& value : plot.values[c]) {
      data << '\t';
      if (value) data << *value; else data << '-';
    }
    data << '\n';
  }
  script << "plot ";
  for (std::size_t s = 0; s < plot.series_titles.size(); ++s) {
    script << (s ? ", \\\n     " : "") << gnuplot_string(plot.name + ".dat") << " using " << s + 2
           << (s ? "" : ":xtic(1)") << " lc rgb '" << colour(s) << "' title "
           << gnuplot_string(plot.series_titles[s]);
  }
  // With one bar per cluster, its value is printed on it; several would need per-bar offsets.
  if (plot.series_titles.size() == 1) {
    script << ", \\\n     " << gnuplot_string(plot.name + ".dat")
           << " using 0:2:(sprintf('%.2fx', $2)) with labels rotate by 90 left offset 0,0.4 font ',9'"
              " notitle";
  }
  script << ", \\\n     1 with lines lw 2 dt 2 lc rgb 'black' title 'equal (1x)'\n";
  write_file(dir + "/" + plot.name + ".dat", data.str());
  write_file(dir + "/" + plot.name + ".gp", script.str());
  return plot.name + ".gp";
}

bool run_gnuplot(const std::string& dir, const std::vector<std::string>& scripts) {
  if (scripts.empty()) return true;
  std::vector<std::string> words = {"gnuplot"};
  words.insert(words.end(), scripts.begin(), scripts.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot start gnuplot: fork failed");
  if (pid == 0) {
    // The scripts name their data and PNG files relative to the report folder.
    if (chdir(dir.c_str()) != 0) _exit(kNotInstalled - 1);
    execvp("gnuplot", argv.data());
    _exit(kNotInstalled);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == kNotInstalled) return false;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("gnuplot failed on the scripts in '" + dir + "'");
  }
  for (const auto& script : scripts) {
    const std::string png = dir + "/" + script.substr(0, script.rfind('.')) + ".png";
    if (whole_png(png)) continue;
    std::remove(png.c_str());  // no truncated image left for a reader to take as the plot
    throw WriteError("cannot write plot '" + png + "': gnuplot could not write it whole (no " +
                     "space left on the device, or a quota or file-size limit reached)");
  }
  return true;
}

}  // namespace kb
