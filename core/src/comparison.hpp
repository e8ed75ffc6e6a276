// `kbench compare`'s pivot: the median of each case side by side across GPUs, runs or plugins,
// with the speed-up against a baseline column and whether it lies inside the measured noise.
// Pure functions over rows, so the rules (latest row wins, noise marking, geometric means) are
// tested without files or processes.
#pragma once

#include "result_schema.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kb {

enum class CompareBy { gpu, run, plugin };
enum class Metric { time, gbps, gflops };

CompareBy parse_compare_by(const std::string& text);  // InputError when unknown
Metric parse_metric(const std::string& text);         // InputError when unknown
const char* metric_column(Metric metric);             // "median_us", "gbps", "gflops"

struct CompareRequest {
  CompareBy by = CompareBy::gpu;
  Metric metric = Metric::time;
  // Empty: the first column in sorted order. Otherwise a column's exact name, or (--by plugin)
  // the strategy after the family ("cublas"), or a text only one column contains ("H100").
  std::string baseline;
  // Column order: columns matching the first glob first, and so on; the others after them, in
  // sorted order. Empty: sorted order.
  std::vector<std::string> column_order;
  // Each column's speed-up is over the column before it instead of over the baseline: a
  // ladder of versions, each against the one it improves on.
  bool ladder = false;
};

struct PivotCell {
  enum class State { missing, not_ok, ok };
  State state = State::missing;
  std::string status;              // the row's status ("no gbps" for an ok row without one)
  std::string block;               // --by plugin: the best of the plugin's blocks, if it takes one
  double value = 0;                // ok: the metric
  double noise = 0;                // ok: relative half-width of the 95% CI of the median
  std::optional<double> speedup;   // ok, and the baseline ok too: > 1 is better than the baseline
  bool within_noise = false;       // |speedup - 1| <= the two cells' noise together
};

struct PivotRow {
  std::vector<std::string> key;    // one value per PivotTable::key_columns
  std::vector<PivotCell> cells;    // one per PivotTable::columns
};

struct PivotTable {
  std::string title;                       // the family for --by plugin, empty otherwise
  std::vector<std::string> key_columns;    // what identifies a case here, e.g. plugin, dtype
  std::vector<std::string> columns;        // the values of the --by dimension, sorted
  std::size_t baseline = 0;                // index into columns
  std::vector<PivotRow> rows;
  std::vector<std::optional<double>> geomean;  // per column: over the rows with a speed-up
};

struct PluginSummary {  // --by gpu|run: the geometric mean speed-up of one plugin's cases
  std::string plugin;
  std::vector<std::optional<double>> geomean;  // per column of the (single) table
};

struct Comparison {
  CompareBy by = CompareBy::gpu;
  Metric metric = Metric::time;
  bool ladder = false;
  std::vector<PivotTable> tables;           // one; one per family for --by plugin
  std::vector<PluginSummary> per_plugin;    // empty for --by plugin
};

// Throws InputError for an unknown or ambiguous baseline, naming it and the known columns.
Comparison compare(const std::vector<ResultRow>& rows, const CompareRequest& request);

// The label of each row's GPU: its name, or name and UUID where two devices share a name. A host
// plugin's row takes the label of the one GPU its run used, else "host <host name>".
std::vector<std::string> gpu_labels(const std::vector<ResultRow>& rows);

// Orders texts with their digit runs compared as numbers: "512" < "2048", "32x8" < "32x32".
bool natural_less(const std::string& a, const std::string& b);

}  // namespace kb
