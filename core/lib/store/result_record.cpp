#include "store/result_record.hpp"

#include "store/results_store.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace kb {
namespace {

// A numeric cell; nothing for an empty or non-numeric one. "nan", "inf" and an overflowing
// "1e999" are no numbers a row can hold (a hand-edited or foreign file): nothing either.
std::optional<double> number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

const std::string& ResultRecord::cell(CaseColumn column) const {
  switch (column) {
    case CaseColumn::run_id: return run_id;
    case CaseColumn::gpu: break;
    case CaseColumn::gpu_name: return gpu_name;
    case CaseColumn::gpu_uuid: return gpu_uuid;
    case CaseColumn::device: return device;
    case CaseColumn::family: return family;
    case CaseColumn::plugin: return plugin;
    case CaseColumn::plugin_version: return plugin_version;
    case CaseColumn::dtype: return dtype;
    case CaseColumn::op: return op;
    case CaseColumn::shape: return shape;
    case CaseColumn::block: return block;
    case CaseColumn::params: return params;
    case CaseColumn::seed: return seed;
    case CaseColumn::cache: return cache;
    case CaseColumn::repetition: return repetition;
  }
  throw std::logic_error(std::string("no cell for the case column '") + column_name(column) + "'");
}

ResultRecord record_of(const ResultRow& row) {
  ResultRecord r;
  const auto text = [&](const char* column) { return row.get(column); };
  const auto measured = [&](const char* column) { return number(row.get(column)); };
  r.timestamp_utc = text("timestamp_utc");
  r.run_id = text("run_id");
  r.host = text("host");
  r.kbench_version = text("kbench_version");
  r.throttle = text("throttle");
  r.referee = text("referee");
  r.kernel_file = text("kernel_file");
  r.kernel_sha256 = text("kernel_sha256");
  r.kernel_compiler = text("kernel_compiler");
  r.code = text("code");
  r.power_w = measured("power_w");
  r.temperature_c = measured("temperature_c");
  r.gpu_name = text("gpu_name");
  r.gpu_uuid = text("gpu_uuid");
  r.compute_capability = text("compute_capability");
  r.sm_count = measured("sm_count");
  r.l2_bytes = measured("l2_bytes");
  r.theoretical_gbps = measured("theoretical_gbps");
  r.copy_gbps = measured("copy_gbps");
  r.sm_clock_mhz = measured("sm_clock_mhz");
  r.device = text("device");
  r.family = text("family");
  r.plugin = text("plugin");
  r.plugin_version = text("plugin_version");
  r.dtype = text("dtype");
  r.op = text("op");
  r.shape = text("shape");
  r.block = text("block");
  r.params = text("params");
  r.seed = text("seed");
  r.cache = text("cache");
  r.repetition = text("repetition");
  r.status = parse_status(text("status"));
  if (!r.status) r.other_status = text("status");
  r.message = text("message");
  r.median_us = measured("median_us");
  r.min_us = measured("min_us");
  r.noise = measured("noise");
  r.batch_us = measured("batch_us");
  r.host_us = measured("host_us");
  r.bytes = measured("bytes");
  r.flops = measured("flops");
  r.gbps = measured("gbps");
  r.gflops = measured("gflops");
  r.fraction_of_peak = measured("fraction_of_peak");
  r.energy_j = measured("energy_j");
  r.gb_per_j = measured("gb_per_j");
  r.gflop_per_j = measured("gflop_per_j");
  r.peak = text("peak");
  r.metrics = text("metrics");
  r.cupti_us = measured("cupti_us");
  r.cupti_kernels = measured("cupti_kernels");
  r.counters = text("counters");
  return r;
}

std::vector<std::string> key_cells(const ResultRecord& record, CaseColumns columns,
                                   const std::string& gpu) {
  std::vector<std::string> cells;
  for (const CaseColumn column : columns.list()) {
    cells.push_back(column == CaseColumn::gpu ? gpu : record.cell(column));
  }
  return cells;
}

std::vector<ResultRecord> read_records(const std::string& path) {
  std::vector<ResultRecord> records;
  for (const auto& row : read_results(path)) records.push_back(record_of(row));
  return records;
}

}  // namespace kb
