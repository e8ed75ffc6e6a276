// A results row read back, typed once: the numbers parsed, the status an enum, the text that names
// things kept as written, once per process (util/interned_text.hpp): a million rows name a few
// hundred plugins. `compare`, `report`, the verdicts, the history and `tune` work on these;
// which cells a record keeps, and how, is the column list's word (result_columns.hpp). An empty or non-numeric cell is a number not given
// (a host plugin has no GPU, a transpose no flops, an unsupported case no time), and so is one
// that reads as no finite number ("nan", "inf", "1e999"). Whether a number is a measurement (a
// median of 0, -1 or 1e308 us is none) is the analysis's question (analysis/metric.hpp).
#pragma once

#include "case/case_status.hpp"
#include "store/case_columns.hpp"
#include "store/result_columns.hpp"
#include "util/interned_text.hpp"
#include "util/optional_number.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kb {

struct ResultRecord {
  // When and where: the timestamp as written ("2026-11-21T23:59:01Z", which sorts as it reads).
  Text timestamp_utc, run_id, host, kbench_version;

  // The GPU and its measured facts; empty for a host plugin's row.
  Text gpu_name, gpu_uuid, compute_capability;
  OptionalNumber sm_count, l2_bytes, theoretical_gbps, copy_gbps, sm_clock_mhz;

  // The case (case_columns.hpp: which of these identify it for which question).
  Text device, family, plugin, plugin_version, dtype, op, shape, block, params, seed, cache,
      repetition;

  // What became of it. `status` is nothing for a word this kbench does not know (a newer one's);
  // `other_status` then keeps it as written.
  std::optional<CaseStatus> status;
  Text other_status, message;
  OptionalNumber median_us, min_us, noise, batch_us, host_us;
  OptionalNumber bytes, flops, gbps, gflops, fraction_of_peak;
  OptionalNumber energy_j, power_w, gb_per_j, gflop_per_j, temperature_c;
  Text throttle;  // the clock-slowdown reasons NVML gave, "" when none
  // Who judged it: "family" (a version 3 strategy), "plugin" (its own referee), "" (a file from
  // before the column: every plugin then was its own referee).
  Text referee;
  bool refereed_by_family() const { return referee == "family"; }
  // A kernel file's row (`--kernel`): the file, the SHA-256 of its bytes, how its code was made;
  // empty for a plugin's row and in files from before the columns.
  Text kernel_file, kernel_sha256, kernel_compiler;
  // Which code ran (plan/device_code.hpp): "sm_90 (cuda 13.0)", "ptx-jit compute_80 (ptx 9.0)"; empty
  // for a host plugin's row, where unknown, and in files from before the column.
  Text code;
  Text peak;     // what fraction_of_peak is of: "copy", or a precision ("fp32", "bf16", ...)
  Text metrics;  // the plugin's own account of the launch, as it wrote it
  // The fourth clock (CUPTI: device time and operations per launch) and --metrics' counters
  // ("label=value;...", device/counters.hpp).
  OptionalNumber cupti_us, cupti_kernels;
  Text counters;
  // The kernels one launch ran, by name, per CUPTI: "transpose_tile<float> x1; cub::...
  // [CUB] x1" (a vendor library's kernel says so); empty without the fourth clock.
  Text kernels;

  bool ok() const { return status == CaseStatus::ok; }
  // The status as its row names it.
  std::string status_text() const { return status ? status_name(*status) : other_status.str(); }
  // The cell of a column that identifies the case; `gpu` is a label, not a cell (std::logic_error).
  const Text& cell(CaseColumn column) const;
};

ResultRecord record_of(const ResultCells& row);
// The same from cells as a reader holds them: cell(i) is column i's text (kResultHeader' order),
// unescaped and NUL-terminated, and text(i) the same as a Text (a reader keeps the last of each
// column, which the next row mostly repeats).
using CellOf = std::function<const char*(std::size_t column)>;
using TextOf = std::function<Text(std::size_t column)>;
ResultRecord record_of_cells(const CellOf& cell, const TextOf& text);

// The cells of `columns`, in their order; `gpu` is the reader's label of the row's GPU.
std::vector<std::string> key_cells(const ResultRecord& record, CaseColumns columns,
                                   const std::string& gpu = "");

// A row's cell of a column that identifies the case, as written (`gpu`: std::logic_error).
const std::string& case_cell(const ResultCells& row, CaseColumn column);

}  // namespace kb
