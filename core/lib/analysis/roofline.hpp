// The roofline of each GPU model (Williams, Waterman and Patterson, CACM 2009): a kernel's
// achieved FLOP/s against its arithmetic intensity (flops per byte it must move), under the roofs
// that bound it — the measured copy bandwidth, a slope of bandwidth x intensity, and the peak of
// each precision the kernels use. How far a point sits below its roof is how much is left.
#pragma once

#include "analysis/gpu_model.hpp"
#include "store/result_record.hpp"
#include "store/rows_view.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kb {

struct RooflinePoint {
  std::string model, family, plugin, dtype, op, shape, block;
  std::string bound;              // case_bound: "memory" or the precision
  double intensity = 0;           // flops / bytes
  double gflops = 0;              // the median over the model's cards
  std::optional<double> roof;     // attainable_gflops of the case on the model
};

struct ModelRoofs {
  std::string model;
  std::optional<double> copy_gbps;
  std::vector<std::pair<std::string, double>> peaks;  // GFLOP/s per precision the points use
};

struct Roofline {
  std::vector<ModelRoofs> models;
  // Each plugin's best case (most GFLOP/s) per model, of those the roofs bound (not L2-bound).
  std::vector<RooflinePoint> points;
  std::vector<std::string> without_flops;   // GPU plugins whose cases do no arithmetic: no point
};

Roofline build_roofline(RowsView rows, const std::vector<GpuModel>& models);

// The GFLOP/s a case can reach on a model at its intensity: the lower of copy bandwidth x
// intensity and, for a compute-bound case, the peak at its precision. Nothing for a case without
// flops or bytes, or a model without either roof.
std::optional<double> attainable_gflops(const ResultRecord& row, const GpuModel& model);

}  // namespace kb
