// `kbench report`: a markdown report with PNG plots, drawn by gnuplot, from results CSV files.
#include "commands.hpp"

#include "gnuplot.hpp"
#include "input_error.hpp"
#include "options.hpp"
#include "plugin_probe.hpp"
#include "report.hpp"
#include "result_selection.hpp"

#include <iostream>

namespace kb {

int report_command(const std::vector<std::string>& args) {
  RowSelection selection;
  std::string dir;
  po::options_description description("kbench report");
  description.add_options()
      ("help,h", "show this help")
      ("output,o", po::value(&dir)->required(), "folder for report.md, the plots and their scripts");
  std::vector<std::string> plugin_dirs;
  description.add(row_selection_options(selection)).add(plugin_path_options(plugin_dirs));
  if (!parse_results_command(args, description, "report",
                             "Usage: kbench report CSV... -o DIR [options]")) {
    return 0;
  }
  const auto rows = select_rows(read_results_files(selection.files), selection.families,
                                selection.plugin_globs);
  // The families' headlines and references, as the plugins found describe them.
  const Discovery found = PluginProbe(executable_path(), 60).discover(plugin_search_path(plugin_dirs));
  const auto scripts = write_report(rows, FamilyTable(found.plugins), dir);
  if (run_gnuplot(dir, scripts)) {
    std::cout << "wrote " << dir << "/report.md and " << scripts.size() << " plot(s)\n";
  } else {
    std::cout << "wrote " << dir << "/report.md; gnuplot is not installed, so the " << scripts.size()
              << " plot(s) were not drawn (their .gp scripts and .dat data are in " << dir
              << "; scripts/install-deps.sh installs gnuplot-nox)\n";
  }
  return 0;
}

}  // namespace kb
