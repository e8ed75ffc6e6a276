// Which GPU a results row belongs to. A GPU model is a name and a compute capability; the physical
// cards of one model (one per lease, many in a machine room) pool into one column, so that "H200
// vs H100" compares generations rather than cards. Grouping by device keeps one column per card.
#pragma once

#include "device/peak_rates.hpp"
#include "store/result_record.hpp"
#include "store/rows_view.hpp"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kb {

enum class GpuGrouping { model, device };

// One label per row. A model's label is its name, with the compute capability where one name
// comes with several; a device's is its name, with the UUID's first group where several cards
// share the name. A host plugin's row takes the label of the one GPU its run used, else
// "host <host name>".
std::vector<Text> gpu_labels(RowsView rows,
                             GpuGrouping grouping = GpuGrouping::model);

struct GpuCard {
  std::string uuid;
  std::optional<double> copy_gbps;  // of its latest row
  std::set<std::string> runs;
  std::size_t rows = 0;
};

struct GpuModel {
  std::string label, name, compute_capability;
  int sm_count = 0;
  std::optional<double> theoretical_gbps;
  // The median over the cards of each card's latest measured copy bandwidth, and their range.
  std::optional<double> copy_gbps;
  double copy_min = 0, copy_max = 0;
  // The median SM clock of its rows (NVML, read right after sampling), else the nominal boost
  // clock of its compute capability (`nominal_clock` is then true).
  std::optional<double> clock_mhz;
  bool nominal_clock = false;
  std::vector<GpuCard> cards;  // by UUID
  std::vector<std::string> codes;  // the code its rows ran (the `code` column), each once
  std::set<std::string> runs;
  std::size_t rows = 0;

  // GFLOP/s at a precision of the `peak` column ("fp32", "bf16", ...); nothing when unknown.
  std::optional<double> peak_gflops(const std::string& precision) const;
  // Its architecture is in the peak table (device/peak_rates.hpp).
  bool peaks_known() const;
};

// The models of the rows that ran on a GPU, oldest first: by compute capability, then by name in
// natural order (the H100 before the H200). The first is the baseline of the expected scaling.
std::vector<GpuModel> gpu_models(RowsView rows);

// The model of that label among `models`; nullptr when none has it (a host's label).
const GpuModel* find_model(const std::vector<GpuModel>& models, const std::string& label);

}  // namespace kb
