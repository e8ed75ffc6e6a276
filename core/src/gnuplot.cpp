#include "gnuplot.hpp"

#include "input_error.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace kb {
namespace {

constexpr int kNotInstalled = 127;  // the shell's "command not found" exit code

// Ten colours told apart at a glance (matplotlib's "tab10" without its grey), none of them the
// black of a reference line; a colour comes back after ten plugins, with another point type.
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#393b79"};
constexpr int kPaletteSize = sizeof kPalette / sizeof kPalette[0];

// A gnuplot double-quoted string; `noenhanced` is set wherever a text holds plugin names, whose
// underscores would otherwise turn into subscripts.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw InputError("cannot write '" + path + "'");
}

// Shared by every plot: a PNG wide enough for a legend outside the plot area, and a grid.
std::string preamble(const std::string& name, const std::string& title) {
  // `reset`: one gnuplot process draws every script, and a log axis must not leak into the next.
  return "reset\n"
         "set terminal pngcairo size 1200,650 enhanced font 'sans,11'\n"
         "set output " + quoted(name + ".png") + "\n"
         "set title " + quoted(title) + " noenhanced\n"
         "set datafile separator '\\t'\n"
         "set datafile missing '-'\n"
         "set grid\n"
         "set key outside right top noenhanced\n";
}

}  // namespace

std::string write_plot(const LinePlot& plot, const std::string& dir) {
  std::ostringstream data, script;
  script << preamble(plot.name, plot.title);
  script << "set xlabel " << quoted(plot.x_label) << " noenhanced\n"
         << "set ylabel " << quoted(plot.y_label) << " noenhanced\n"
         << "set logscale x 2\n";
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
    script << "set logscale y 10\n";
  } else {
    script << "set yrange [0:*]\n";
  }
  if (!plot.x_ticks.empty()) {
    script << "set xtics rotate by -30 noenhanced (";
    for (std::size_t i = 0; i < plot.x_ticks.size(); ++i) {
      script << (i ? ", " : "") << quoted(plot.x_ticks[i].second) << " " << plot.x_ticks[i].first;
    }
    script << ")\n";
    // Room on both sides, so the end points sit off the frame and a single size still has a range.
    script << "set xrange [" << plot.x_ticks.front().first / 1.5 << ":"
           << plot.x_ticks.back().first * 1.5 << "]\n";
  }
  std::vector<std::string> plots;
  int index = 0, measured = 0;
  for (const auto& s : plot.series) {
    if (s.points.empty()) continue;
    for (const auto& [x, y] : s.points) data << x << '\t' << y << '\n';
    data << "\n\n";
    std::string style = "with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black'";
    if (s.style == PlotSeries::Style::measured) {
      const int point_types[] = {7, 5, 9, 11, 13};
      style = std::string("with linespoints lw 2 pt ") +
              std::to_string(point_types[(measured / kPaletteSize) % 5]) + " lc rgb '" +
              kPalette[measured % kPaletteSize] + "'";
      ++measured;
    }
    plots.push_back(quoted(plot.name + ".dat") + " index " + std::to_string(index++) +
                    " using 1:2 " + style + " title " + quoted(s.title));
  }
  if (plot.ceiling) {
    plots.push_back(std::to_string(plot.ceiling->second) +
                    " with lines lw 2 dt 3 lc rgb 'gray40' title " + quoted(plot.ceiling->first));
  }
  script << "plot ";
  for (std::size_t i = 0; i < plots.size(); ++i) script << (i ? ", \\\n     " : "") << plots[i];
  script << "\n";
  write_file(dir + "/" + plot.name + ".dat", data.str());
  write_file(dir + "/" + plot.name + ".gp", script.str());
  return plot.name + ".gp";
}

std::string write_plot(const BarPlot& plot, const std::string& dir) {
  std::ostringstream data, script;
  script << preamble(plot.name, plot.title);
  script << "set ylabel " << quoted(plot.y_label) << " noenhanced\n"
         << "set style data histogram\n"
         << "set style histogram clustered gap 1\n"
         << "set style fill solid 0.8 border -1\n"
         << "set boxwidth 0.9\n"
         << "set xtics rotate by 45 right noenhanced\n"
         << "set key outside top center horizontal\n"
         << "set yrange [0:*]\n"
         << "set offsets 0, 0, graph 0.12, 0\n";  // room above the tallest bar for its label
  for (std::size_t c = 0; c < plot.categories.size(); ++c) {
    data << plot.categories[c];
    for (const auto& value : plot.values[c]) {
      data << '\t';
      if (value) data << *value; else data << '-';
    }
    data << '\n';
  }
  script << "plot ";
  for (std::size_t s = 0; s < plot.series_titles.size(); ++s) {
    script << (s ? ", \\\n     " : "") << quoted(plot.name + ".dat") << " using " << s + 2
           << (s ? "" : ":xtic(1)") << " title " << quoted(plot.series_titles[s]);
  }
  // With one bar per cluster, its value is printed on it; several would need per-bar offsets.
  if (plot.series_titles.size() == 1) {
    script << ", \\\n     " << quoted(plot.name + ".dat")
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
  return true;
}

}  // namespace kb
