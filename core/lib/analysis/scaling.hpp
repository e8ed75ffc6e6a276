// Did each plugin speed up from one GPU model to the next as the hardware did? Per plugin, each
// model against the baseline (the oldest): the measured speed-up beside the one its bound
// predicts — the ratio of the models' measured copy bandwidth for memory-bound cases, of their
// peak FLOP/s at the case's precision for compute-bound ones — and the scaling efficiency,
// measured over predicted. A kernel at the roof scales as the roof; one below it (latency, launch
// overhead, a bottleneck the newer part did not widen) shows here as an efficiency below 1.
#pragma once

#include "analysis/case_bound.hpp"
#include "analysis/gpu_model.hpp"
#include "store/result_record.hpp"
#include "store/rows_view.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kb {

// Efficiency within this of 1 counts as scaled as predicted: the cards of one model differ by
// about 1% in copy bandwidth, and the medians of two runs of a case by as much again.
inline constexpr double kScalingTolerance = 0.05;

struct CaseScaling {
  std::string plugin, dtype, op, shape, block, cache;
  std::string bound;                  // case_bound on either model; "L2": no prediction, as no
                                      // L2 bandwidth is measured
  double work = 0;                    // bytes (memory-bound) or flops of one launch
  double measured = 0;                // time on the baseline / time on the other model
  bool within_noise = false;          // measured is 1 within the two cells' noise
  std::optional<double> predicted;    // nothing where a bandwidth or peak is unknown
  std::optional<double> efficiency;   // measured / predicted
};

struct PluginScaling {
  std::string plugin;
  // Over the cases run on both models that have a prediction, or all of them where none has.
  std::string bound;                  // their bounds, e.g. "memory" or "fp32, fp64"
  std::size_t cases = 0;
  double measured = 0;                // geometric mean
  std::optional<double> predicted;    // geometric mean
  std::optional<double> efficiency;   // measured / predicted
  CaseScaling largest;                // the case doing the most work
  bool as_predicted() const;
};

struct ModelScaling {
  std::string baseline, other;        // model labels
  std::optional<double> copy_ratio;   // other's measured copy bandwidth / the baseline's
  // Plugins furthest from their prediction first; those without one last.
  std::vector<PluginScaling> plugins;
  std::vector<CaseScaling> cases;
};

// One entry per model after the first of `models` (gpu_models' order); none with one model.
std::vector<ModelScaling> expected_scaling(RowsView rows, const std::vector<GpuModel>& models);

}  // namespace kb
