// `kbench compare`: the medians of the same cases side by side across GPUs, runs or plugins.
#include "commands.hpp"

#include "comparison.hpp"
#include "comparison_format.hpp"
#include "input_error.hpp"
#include "options.hpp"
#include "result_selection.hpp"

#include <iostream>

namespace kb {

int compare_command(const std::vector<std::string>& args) {
  RowSelection selection;
  std::string by, metric = "time", format = "markdown";
  CompareRequest request;
  po::options_description description("kbench compare");
  description.add_options()
      ("help,h", "show this help")
      ("by", po::value(&by)->required(),
       "what the columns are: gpu (a model, its cards pooled) | device | run | plugin (then each "
       "family is its own table)")
      ("baseline", po::value(&request.baseline),
       "the column the speed-ups are against (default: the first in sorted order)")
      ("metric", po::value(&metric)->default_value(metric),
       "time | gbps | gflops | energy (J per launch) | efficiency (GB/J or GFLOP/J)")
      ("format", po::value(&format)->default_value(format), "markdown | csv")
      ("ladder", po::bool_switch(&request.ladder),
       "each column's speed-up over the column before it (columns in --plugin order)")
      ("config", po::value<std::string>(),
       "take --family and --plugin (in order) from a kbench run config, e.g. a preset");
  description.add(row_selection_options(selection));
  if (!parse_results_command(args, description, "compare",
                             "Usage: kbench compare CSV... --by gpu|device|run|plugin [options]")) {
    return 0;
  }
  request.column_order = selection.plugin_globs;
  request.by = parse_compare_by(by);
  request.metric = parse_metric(metric);
  if (format != "markdown" && format != "csv") {
    throw InputError("unknown --format '" + format + "' (markdown or csv)");
  }
  const auto rows = select_rows(read_results_files(selection.files), selection.families,
                                selection.plugin_globs);
  const Comparison comparison = compare(rows, request);
  std::cout << (format == "csv" ? comparison_csv(comparison) : comparison_markdown(comparison));
  return 0;
}

}  // namespace kb
