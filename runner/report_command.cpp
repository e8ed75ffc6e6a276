// `kbench report`: a markdown report with PNG plots, drawn by gnuplot, from results CSV files.
#include "analysis/history.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "protocol/plugin_probe.hpp"
#include "report/gnuplot.hpp"
#include "report/history_report.hpp"
#include "report/report.hpp"
#include "store/result_selection.hpp"
#include "util/input_error.hpp"

#include <iostream>

namespace kb {

int report_command(const std::vector<std::string>& args) {
  RowSelection selection;
  std::string dir;
  bool trend = false;
  po::options_description description("kbench report");
  description.add_options()
      ("help,h", "show this help")
      ("output,o", po::value(&dir)->required(), "folder for report.md, the plots and their scripts")
      ("history", po::bool_switch(&trend),
       "instead: the nightly runs' trend (DIR/history.md), a plot per family with the "
       "regressions the gate found between consecutive runs");
  std::vector<std::string> plugin_dirs;
  description.add(row_selection_options(selection)).add(plugin_path_options(plugin_dirs));
  if (!parse_results_command(args, description, "report",
                             "Usage: kbench report CSV... -o DIR [--history] [options]")) {
    return 0;
  }
  const auto rows = select_rows(read_results_files(selection.files), selection.families,
                                selection.plugin_globs);
  const GateRequest gate;
  std::vector<std::string> scripts;
  if (trend) {
    scripts = write_history(history(rows, gate), gate, dir);
  } else {
    // The families' headlines and references, as the plugins found describe them.
    const Discovery found =
        PluginProbe(executable_path(), 60).discover(plugin_search_path(plugin_dirs));
    scripts = write_report(rows, FamilyTable(found.families, found.plugins), dir);
  }
  const std::string written = dir + (trend ? "/history.md" : "/report.md");
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
