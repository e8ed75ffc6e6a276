#include "analysis/roofline.hpp"

#include "analysis/case_bound.hpp"
#include "analysis/comparison.hpp"
#include "analysis/metric.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace kb {

std::optional<double> attainable_gflops(const ResultRecord& row, const GpuModel& model) {
  const double bytes = measurement(row.bytes).value_or(0);
  const double flops = measurement(row.flops).value_or(0);
  if (!(bytes > 0) || !(flops > 0)) return std::nullopt;
  std::optional<double> roof;
  if (model.copy_gbps) roof = *model.copy_gbps * flops / bytes;
  const std::string bound = case_bound(row);
  if (bound != "memory") {
    if (const auto peak = model.peak_gflops(bound)) roof = roof ? std::min(*roof, *peak) : *peak;
  }
  return roof;
}

Roofline build_roofline(RowsView rows, const std::vector<GpuModel>& models) {
  Roofline roofline;
  std::vector<std::uint32_t> ok_on_a_gpu;
  std::set<std::string> plugins, with_flops;
  for (std::uint32_t i = 0; i < rows.size(); ++i) {
    const ResultRecord& row = rows[i];
    if (row.gpu_name.empty() || !row.ok()) continue;
    ok_on_a_gpu.push_back(i);
    plugins.insert(row.plugin);
    if (row.flops.value_or(0) > 0) with_flops.insert(row.plugin);
  }
  std::set_difference(plugins.begin(), plugins.end(), with_flops.begin(), with_flops.end(),
                      std::back_inserter(roofline.without_flops));
  if (with_flops.empty()) return roofline;

  // The best block of each case, pooled over the cards: then the best case of each plugin.
  const RowsView gpu_rows = rows.subset(ok_on_a_gpu);
  const Comparison comparison = compare(gpu_rows, {CompareBy::plugin, Metric::gflops, ""});
  std::map<std::pair<std::string, std::string>, RooflinePoint> best;  // (model, plugin)
  for (const PivotTable& table : comparison.tables) {
    for (const PivotRow& row : table.rows) {
      for (std::size_t c = 0; c < table.columns.size(); ++c) {
        const PivotCell& cell = row.cells[c];
        if (cell.state != PivotCell::State::ok) continue;
        const ResultRecord& source = gpu_rows[*cell.source];
        // Work no case can do (0, -1, 1e-300 bytes: a hand-edited file) places no point.
        const double bytes = measurement(source.bytes).value_or(0);
        const double flops = measurement(source.flops).value_or(0);
        // The DRAM roofs do not bound a case served from L2.
        if (!(bytes > 0) || !(flops > 0) || case_bound(source) == "L2") continue;
        const std::string model = row.key[key_index(table, "gpu")];
        auto& point = best[{model, table.columns[c]}];
        if (cell.value <= point.gflops) continue;
        point = RooflinePoint{model, table.title, table.columns[c], source.dtype,
                              source.op, source.shape, cell.block,
                              case_bound(source), flops / bytes, cell.value, std::nullopt};
        for (const auto& m : models) {
          if (m.label == model) point.roof = attainable_gflops(source, m);
        }
      }
    }
  }
  std::set<std::string> precisions;
  for (auto& [key, point] : best) {
    if (point.bound != "memory" && !point.bound.empty()) precisions.insert(point.bound);
    roofline.points.push_back(std::move(point));
  }
  for (const auto& model : models) {
    ModelRoofs roofs{model.label, model.copy_gbps, {}};
    for (const auto& precision : precisions) {
      if (const auto peak = model.peak_gflops(precision)) roofs.peaks.emplace_back(precision, *peak);
    }
    roofline.models.push_back(std::move(roofs));
  }
  return roofline;
}

}  // namespace kb
