// `kbench compare`'s pivot: the median of each case side by side across GPU models, devices, runs
// or plugins, with the speed-up against a baseline column and whether it lies inside the measured
// noise. Pure functions over rows, so the rules (latest row wins, cards of a model pooled, noise
// marking, geometric means) are tested without files or processes.
#pragma once

#include "analysis/gpu_model.hpp"
#include "analysis/metric.hpp"
#include "store/result_record.hpp"
#include "store/rows_view.hpp"
#include "util/natural_order.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kb {

// gpu: a column per GPU model, its cards pooled; device: a column per card (UUID).
enum class CompareBy { gpu, device, run, plugin };

CompareBy parse_compare_by(const std::string& text);  // InputError when unknown

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

// A case in a column: the latest row of each card (GPU UUID) that ran it there, pooled (see
// card_pool.hpp). A card whose latest row failed is left out while another card passed.
struct PivotCell {
  enum class State { missing, not_ok, ok };
  State state = State::missing;
  std::string status;              // the row's status ("no gbps" for an ok row without one)
  std::string block;               // --by plugin: the best of the plugin's blocks, if it takes one
  double value = 0;                // ok: the metric, the median over the cards
  double noise = 0;                // ok: relative half-width of the 95% CI of the median, or half
                                   // the spread between the cards where that is larger
  double spread = 0;               // ok: (max - min) / value over the cards
  std::size_t cards = 0;           // ok: the cards pooled
  std::optional<std::size_t> source;  // index of the latest pooled row (for bytes, flops, peak)
  double time_us = 0;              // ok: that row's median time (a counter's block is chosen by it)
  std::optional<double> speedup;   // ok, and the baseline ok too (both positive): > 1 is better
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
  std::vector<std::size_t> cards;          // per column: the GPUs (UUIDs) its rows ran on
  std::size_t baseline = 0;                // index into columns
  std::vector<PivotRow> rows;
  std::vector<std::optional<double>> geomean;  // per column: over the rows with a speed-up
};

struct PluginSummary {  // --by gpu|run: the geometric mean speed-up of one plugin's cases
  std::string plugin;
  std::vector<std::optional<double>> geomean;  // per column of the (single) table
};

// A plugin whose rows came from a kernel file (`--kernel`, the kernel_* columns): its file(s) and
// the contents' hashes, in the order the rows first hold them. More than one hash: the file was
// edited between the rows, which then compare different code.
struct KernelFileRows {
  std::string plugin;
  std::vector<std::string> files;
  std::vector<std::string> sha256s;
};

// --by gpu or device: the code a column's rows ran (the `code` column), each once, in the order met.
struct ColumnCode {
  std::string column;
  std::vector<std::string> codes;
};

// A plugin whose rows ran code built differently in a column and in the column its speed-ups there
// are against: compiled by the driver from PTX on one side and machine code on the other, or made
// by different compilers. The speed-up then weighs the compilers as well as the GPUs.
struct CodeDifference {
  std::string plugin;
  std::string column, code;              // the column and its code
  std::string against_column, against;   // the baseline (or the column to its left) and its code
  bool jit_on_one_side = false;          // else: different compilers
};

// A case whose launch ran other kernels in a column than in the column its speed-up is against
// (the `kernels` column, per CUPTI): a library that chose another kernel, a strategy that changed
// what it runs. Only where both rows name their kernels.
struct KernelsDifference {
  std::string plugin, case_text;       // "transpose/fast", "float32 8192x8192"
  std::string column, kernels;         // the column and what its row ran
  std::string against_column, against;  // the baseline (or the column to its left) and its row's
};

struct Comparison {
  CompareBy by = CompareBy::gpu;
  Metric metric = Metric::time;
  bool ladder = false;
  std::vector<PivotTable> tables;           // one; one per family for --by plugin
  std::vector<PluginSummary> per_plugin;    // empty for --by plugin
  // Where rows its family refereed are compared: the plugins with rows refereed by the plugin
  // itself (ABI version 1 or 2), whose inputs, work count and check are their own word. Empty
  // when every row was judged the same way.
  std::vector<std::string> self_refereed;
  // The plugins compared whose rows came from kernel files, by name.
  std::vector<KernelFileRows> kernel_files;
  // --by gpu or device, where rows say which code ran: each column's, and where it differs.
  std::vector<ColumnCode> codes;
  std::vector<CodeDifference> built_differently;
  // --by run, gpu or device: the cases whose kernels changed between a column and the one it is
  // held against.
  std::vector<KernelsDifference> kernels_changed;
};

// Throws InputError for an unknown or ambiguous baseline, naming it and the known columns. Every
// table keeps all its key columns (the GPU is the model's label); printing hides the constant ones.
Comparison compare(RowsView rows, const CompareRequest& request);

// The table without the key columns that tell rows apart only sometimes (the GPU, the op, the
// cache state) where every row holds the same value there.
PivotTable without_constant_keys(PivotTable table);

// The index of a key column ("gpu", "shape", ...) in the table; std::logic_error when it has none.
std::size_t key_index(const PivotTable& table, const std::string& column);

}  // namespace kb
