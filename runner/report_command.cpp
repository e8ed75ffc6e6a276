// `kbench report`: a markdown report with PNG plots, drawn by gnuplot, from results CSV files.
#include "commands.hpp"

#include "gnuplot.hpp"
#include "input_error.hpp"
#include "options.hpp"
#include "report.hpp"
#include "result_selection.hpp"

#include <iostream>

namespace kb {

int report_command(const std::vector<std::string>& args) {
  std::vector<std::string> files, families, plugin_globs;
  std::string dir;
  po::options_description description("kbench report");
  description.add_options()
      ("help,h", "show this help")
      ("output,o", po::value(&dir)->required(), "folder for report.md, the plots and their scripts")
      ("family", po::value(&families)->composing(), "only this family (repeatable)")
      ("plugin", po::value(&plugin_globs)->composing(),
       "only plugins whose name matches this glob (repeatable)")
      ("csv", po::value(&files)->composing(), "results CSV files (also given without --csv)");
  po::positional_options_description positional;
  positional.add("csv", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(description).positional(positional).run(), vm);
    if (!vm.count("help")) po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string("kbench report: ") + e.what());
  }
  if (vm.count("help")) {
    std::cout << "Usage: kbench report CSV... -o DIR [options]\n" << description;
    return 0;
  }
  const auto rows = select_rows(read_results_files(files), families, plugin_globs);
  const auto scripts = write_report(rows, dir);
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
