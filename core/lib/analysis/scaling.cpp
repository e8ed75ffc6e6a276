#include "analysis/scaling.hpp"

#include "analysis/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace kb {
namespace {

std::optional<double> ratio(const std::optional<double>& other, const std::optional<double>& base) {
  if (!other || !base || !(*base > 0)) return std::nullopt;
  return *other / *base;
}

double geometric_mean(const std::vector<double>& values) {
  double log_sum = 0;
  for (double v : values) log_sum += std::log(v);
  return std::exp(log_sum / static_cast<double>(values.size()));
}

// Over the cases with a prediction where there are any: measured and predicted then speak of the
// same cases, and efficiency is their ratio.
PluginScaling summarize(const std::string& plugin, const std::vector<CaseScaling>& all) {
  std::vector<CaseScaling> cases;
  std::copy_if(all.begin(), all.end(), std::back_inserter(cases),
               [](const CaseScaling& c) { return c.predicted.has_value(); });
  if (cases.empty()) cases = all;
  PluginScaling summary;
  summary.plugin = plugin;
  summary.cases = cases.size();
  std::set<std::string> bounds;
  std::vector<double> measured, predicted;
  for (const auto& c : cases) {
    bounds.insert(c.bound);
    measured.push_back(c.measured);
    if (c.predicted) predicted.push_back(*c.predicted);
    if (c.work >= summary.largest.work) summary.largest = c;
  }
  for (const auto& bound : bounds) {
    summary.bound += (summary.bound.empty() ? "" : ", ") + (bound.empty() ? "unknown" : bound);
  }
  summary.measured = geometric_mean(measured);
  if (!predicted.empty()) {
    summary.predicted = geometric_mean(predicted);
    summary.efficiency = summary.measured / *summary.predicted;
  }
  return summary;
}

}  // namespace

bool PluginScaling::as_predicted() const {
  return efficiency && std::abs(*efficiency - 1) <= kScalingTolerance;
}

std::vector<ModelScaling> expected_scaling(RowsView rows, const std::vector<GpuModel>& models) {
  if (models.size() < 2) return {};
  // Host plugins' rows say nothing about a GPU.
  const RowsView gpu_rows = rows.subset(on_a_gpu(rows));
  const GpuModel& base = models.front();
  const Comparison comparison = compare(gpu_rows, {CompareBy::gpu, Metric::time, base.label});
  const PivotTable& table = comparison.tables.front();

  std::vector<ModelScaling> scalings;
  for (std::size_t m = 1; m < models.size(); ++m) {
    const GpuModel& other = models[m];
    ModelScaling scaling{base.label, other.label, ratio(other.copy_gbps, base.copy_gbps), {}, {}};
    const auto column = static_cast<std::size_t>(
        std::find(table.columns.begin(), table.columns.end(), other.label) - table.columns.begin());
    if (column == table.columns.size()) continue;  // no ok row of its own
    std::map<std::string, std::vector<CaseScaling>> by_plugin;
    for (const PivotRow& row : table.rows) {
      const PivotCell& cell = row.cells[column];
      if (!cell.speedup) continue;
      const ResultRecord& source = gpu_rows[*row.cells[table.baseline].source];
      const ResultRecord& other_source = gpu_rows[*cell.source];
      CaseScaling c;
      for (auto [field, key] : {std::pair{&c.plugin, "plugin"}, {&c.dtype, "dtype"}, {&c.op, "op"},
                                {&c.shape, "shape"}, {&c.block, "block"}, {&c.cache, "cache"}}) {
        *field = row.key[key_index(table, key)];
      }
      // A case whose bytes fit in the larger L2 of the two is L2-bound on that one.
      c.bound = case_bound(other_source) == "L2" ? "L2" : case_bound(source);
      c.work = (moves_bytes(c.bound) ? source.bytes : source.flops).value_or(0);
      c.measured = *cell.speedup;
      c.within_noise = cell.within_noise;
      if (c.bound == "memory") {
        c.predicted = scaling.copy_ratio;
      } else if (c.bound != "L2") {
        c.predicted = ratio(other.peak_gflops(c.bound), base.peak_gflops(c.bound));
      }
      if (c.predicted) c.efficiency = c.measured / *c.predicted;
      by_plugin[c.plugin].push_back(c);
      scaling.cases.push_back(std::move(c));
    }
    for (const auto& [plugin, cases] : by_plugin) scaling.plugins.push_back(summarize(plugin, cases));
    std::stable_sort(scaling.plugins.begin(), scaling.plugins.end(),
                     [](const PluginScaling& a, const PluginScaling& b) {
                       if (a.efficiency.has_value() != b.efficiency.has_value()) {
                         return a.efficiency.has_value();
                       }
                       return a.efficiency &&
                              std::abs(std::log(*a.efficiency)) > std::abs(std::log(*b.efficiency));
                     });
    scalings.push_back(std::move(scaling));
  }
  return scalings;
}

}  // namespace kb
