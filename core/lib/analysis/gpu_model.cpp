#include "analysis/gpu_model.hpp"

#include "analysis/card_pool.hpp"
#include "analysis/metric.hpp"
#include "device/cuda_code.hpp"
#include "util/natural_order.hpp"
#include "util/statistics.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>

namespace kb {

std::vector<Text> gpu_labels(RowsView rows, GpuGrouping grouping) {
  // What tells two labels of one name apart: the compute capability (model) or the UUID (device).
  const auto distinction = [grouping](const ResultRecord& row) -> const Text& {
    return grouping == GpuGrouping::model ? row.compute_capability : row.gpu_uuid;
  };
  std::map<std::string, std::set<std::string>> distinct_of_name;
  std::set<std::pair<std::uint32_t, std::uint32_t>> named;
  for (const auto& row : rows) {
    if (named.emplace(row.gpu_name.id(), distinction(row).id()).second) {
      distinct_of_name[row.gpu_name].insert(distinction(row));
    }
  }
  // A file of a million rows names a few GPUs: each label is made once.
  std::map<std::array<std::uint32_t, 3>, Text> label_of;
  std::vector<Text> labels;
  labels.reserve(rows.size());
  std::unordered_map<Text, std::set<std::string>> gpus_of_run;
  std::set<std::pair<std::uint32_t, std::uint32_t>> run_labels;
  for (const auto& row : rows) {
    const Text& name = row.gpu_name;
    auto [known, added] =
        label_of.try_emplace({name.id(), distinction(row).id(), row.host.id()}, Text());
    if (added) {
      std::string label = name.empty() ? "host " + row.host : name.str();
      if (!name.empty() && distinct_of_name[name].size() > 1) {
        // "GPU-73c875d3": the UUID's first group tells cards apart and stays short.
        label += grouping == GpuGrouping::model ? " (cc " + distinction(row) + ")"
                                                : " " + distinction(row).substr(0, 12);
      }
      known->second = Text(label);
    }
    if (!name.empty() && run_labels.emplace(row.run_id.id(), known->second.id()).second) {
      gpus_of_run[row.run_id].insert(known->second);
    }
    labels.push_back(known->second);
  }
  // A host plugin's row belongs with the GPU its run used, when the run used one: the seeds
  // compare the CPU loop with the kernels of the same machine.
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& gpus = gpus_of_run[rows[i].run_id];
    if (rows[i].gpu_name.empty() && gpus.size() == 1) labels[i] = *gpus.begin();
  }
  return labels;
}

bool GpuModel::peaks_known() const {
  const auto cc = parse_compute_capability(compute_capability);
  return cc && peak_rates(cc->major, cc->minor, 0, 0).known;
}

std::optional<double> GpuModel::peak_gflops(const std::string& precision) const {
  const auto cc = parse_compute_capability(compute_capability);
  if (!cc || !clock_mhz) return std::nullopt;
  const double peak = peak_rates(cc->major, cc->minor, sm_count, *clock_mhz).of(parse_math(precision));
  if (!(peak > 0)) return std::nullopt;
  return peak;
}

std::vector<GpuModel> gpu_models(RowsView rows) {
  const std::vector<Text> labels = gpu_labels(rows, GpuGrouping::model);
  std::map<std::string, GpuModel> models;
  std::map<std::string, std::map<std::string, std::size_t>> latest_of_card;  // label -> UUID -> row
  std::map<std::string, std::vector<double>> clocks;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ResultRecord& row = rows[i];
    if (row.gpu_name.empty()) continue;
    GpuModel& model = models[labels[i]];
    model.label = labels[i];
    model.name = row.gpu_name;
    model.compute_capability = row.compute_capability;
    // A device's figures as a hand-edited file may hold them (-1, 1e308): only measurable ones.
    const auto sms = measurement(row.sm_count);
    model.sm_count = sms && *sms < 1e6 ? static_cast<int>(*sms) : 0;
    if (const auto theoretical = measurement(row.theoretical_gbps)) {
      model.theoretical_gbps = theoretical;
    }
    model.runs.insert(row.run_id);
    ++model.rows;
    if (!row.code.empty() &&
        std::find(model.codes.begin(), model.codes.end(), row.code) == model.codes.end()) {
      model.codes.push_back(row.code);
    }
    auto& held = latest_of_card[labels[i]];
    const auto found = held.find(row.gpu_uuid);
    if (found == held.end() || is_later(rows, i, found->second)) held[row.gpu_uuid] = i;
    if (const auto clock = measurement(row.sm_clock_mhz)) {
      clocks[labels[i]].push_back(*clock);
    }
  }
  for (auto& [label, model] : models) {
    std::vector<double> copies;
    for (const auto& [uuid, latest] : latest_of_card[label]) {
      GpuCard card{uuid, measurement(rows[latest].copy_gbps), {}, 0};
      if (card.copy_gbps) copies.push_back(*card.copy_gbps);
      model.cards.push_back(std::move(card));
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (labels[i] != label || rows[i].gpu_name.empty()) continue;
      for (auto& card : model.cards) {
        if (card.uuid != rows[i].gpu_uuid) continue;
        card.runs.insert(rows[i].run_id);
        ++card.rows;
      }
    }
    if (!copies.empty()) {
      model.copy_gbps = summarize(copies).median;
      model.copy_min = *std::min_element(copies.begin(), copies.end());
      model.copy_max = *std::max_element(copies.begin(), copies.end());
    }
    if (!clocks[label].empty()) {
      model.clock_mhz = summarize(clocks[label]).median;
    } else if (const auto cc = parse_compute_capability(model.compute_capability)) {
      if (const double nominal = nominal_sm_clock_mhz(cc->major, cc->minor); nominal > 0) {
        model.clock_mhz = nominal;
        model.nominal_clock = true;
      }
    }
  }
  std::vector<GpuModel> ordered;
  for (auto& entry : models) ordered.push_back(std::move(entry.second));
  std::sort(ordered.begin(), ordered.end(), [](const GpuModel& a, const GpuModel& b) {
    const auto ca = parse_compute_capability(a.compute_capability).value_or(ComputeCapability{});
    const auto cb = parse_compute_capability(b.compute_capability).value_or(ComputeCapability{});
    if (std::tie(ca.major, ca.minor) != std::tie(cb.major, cb.minor)) {
      return std::tie(ca.major, ca.minor) < std::tie(cb.major, cb.minor);
    }
    return natural_less(a.name, b.name);
  });
  return ordered;
}

const GpuModel* find_model(const std::vector<GpuModel>& models, const std::string& label) {
  for (const auto& model : models) {
    if (model.label == label) return &model;
  }
  return nullptr;
}

}  // namespace kb
