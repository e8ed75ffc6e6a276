// `kbench report`: a markdown report with PNG plots, drawn by gnuplot, from results CSV files;
// with --html, beside them, the same report as one self-contained page to explore.
#include "analysis/history.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "protocol/plugin_probe.hpp"
#include "report/gnuplot.hpp"
#include "report/history_report.hpp"
#include "report/html_history.hpp"
#include "report/html_report.hpp"
#include "report/report.hpp"
#include "store/result_selection.hpp"
#include "util/input_error.hpp"
#include "util/output_file.hpp"
#include "util/progress_line.hpp"

#include <boost/filesystem/path.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

namespace kb {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw InputError("cannot read back '" + path + "'");
  return text.str();
}

// Refuses an input CSV that the report would overwrite: the --html page, or a file in the -o
// folder named as the report writes there (its page, and a script, data and image per plot).
void refuse_overwriting_inputs(const RowSelection& selection, const std::string& dir,
                               const std::string& page, const std::string& html) {
  namespace fs = boost::filesystem;
  if (!html.empty()) refuse_writing_a_file_read("--html", html, selection);
  refuse_writing_a_file_read("-o", (fs::path(dir) / page).string(), selection);
  for (const auto& file : selection.files) {
    const fs::path input(file);
    const std::string kind = input.extension().string();
    const bool plot_named = kind == ".gp" || kind == ".dat" || kind == ".png";
    if (plot_named && same_file(input.has_parent_path() ? input.parent_path().string() : ".", dir)) {
      throw InputError("-o '" + dir + "' holds the input file '" + file +
                       "', named as a plot file the report writes there");
    }
  }
}

}  // namespace

int report_command(const std::vector<std::string>& args) {
  RowSelection selection;
  std::string dir, html;
  bool trend = false;
  GateOptions gate_options;
  po::options_description description("kbench report");
  description.add_options()
      ("help,h", "show this help")
      ("output,o", po::value(&dir)->required(), "folder for report.md, the plots and their scripts")
      ("html", po::value(&html),
       "also write the report as one self-contained HTML file to explore (charts to hover, "
       "plugins to toggle), e.g. DIR/report.html")
      ("history", po::bool_switch(&trend),
       "instead: the nightly runs' trend (DIR/history.md), a plot per family with the "
       "regressions the gate found between consecutive runs");
  po::options_description gate("The gate of --history (as kbench compare's)");
  add_gate_options(gate, gate_options);
  std::vector<std::string> plugin_dirs;
  description.add(gate).add(row_selection_options(selection)).add(plugin_path_options(plugin_dirs));
  if (!parse_results_command(args, description, "report",
                             "Usage: kbench report CSV... -o DIR [--html FILE] [--history "
                             "[--fail-slower PCT]] [options]")) {
    return 0;
  }
  if (!trend && gate_options.given()) {
    throw InputError("--fail-slower, --min-effect and --alpha are for --history");
  }
  const GateRequest request = gate_options.request();
  refuse_overwriting_inputs(selection, dir, trend ? "history.md" : "report.md", html);
  auto rows = read_selected_rows(selection.files, {selection.families, selection.plugin_globs, {}});
  std::vector<std::string> scripts;
  if (trend) {
    ProgressLine progress;
    History h = history(rows, request, [&](std::size_t run, std::size_t runs) {
      progress.update([&] {
        return "kbench: the history: run " + std::to_string(run + 1) + " of " +
               std::to_string(runs) + " against the one before";
      });
    });
    // The page first, taking the rows its hovers read; history.md and the plots need only the
    // history, so a long file's rows are let go of before they are made.
    if (!html.empty()) {
      create_output_folder(dir, "report");
      write_html_history(h, std::move(rows), request, html);
    }
    rows = {};
    scripts = write_history(std::move(h), request, dir);
  } else {
    // The families' headlines and references, as the plugins found describe them.
    const Discovery found =
        PluginProbe(executable_path(), 60).discover(plugin_search_path(plugin_dirs));
    const FamilyTable families(found.families, found.plugins);
    scripts = write_report(rows, families, dir);
    if (!html.empty()) write_html_report(rows, families, read_text(dir + "/report.md"), html);
  }
  const std::string written =
      dir + (trend ? "/history.md" : "/report.md") + (html.empty() ? "" : ", " + html);
  if (run_gnuplot(dir, scripts)) {
    std::cout << "wrote " << written << " and " << scripts.size() << " plot(s)\n";
  } else {
    std::cout << "wrote " << written << "; gnuplot is not installed, so the " << scripts.size()
              << " plot(s) were not drawn (their .gp scripts and .dat data are in " << dir
              << "; scripts/install-deps.sh installs gnuplot-nox)\n";
  }
  return 0;
}

}  // namespace kb
