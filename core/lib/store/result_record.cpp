#include "store/result_record.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <stdexcept>

namespace kb {
namespace {

// A numeric cell; nothing for an empty or non-numeric one. "nan", "inf" and an overflowing
// "1e999" are no numbers a row can hold (a hand-edited or foreign file): nothing either.
std::optional<double> number(const char* text) {
  if (*text == '\0') return std::nullopt;
  // from_chars (correctly rounded, as strtod) where it reads the whole cell; strtod for what only
  // it reads ("+1", "0x1p3").
  const char* end = text + std::strlen(text);
  double value = 0;
  const auto [stop, fault] = std::from_chars(text, end, value);
  if (fault != std::errc() || stop != end) {
    char* stopped = nullptr;
    value = std::strtod(text, &stopped);
    if (stopped == text || *stopped != '\0') return std::nullopt;
  }
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

const Text& ResultRecord::cell(CaseColumn column) const {
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

namespace {

// A cell by its column's place, found when compiling.
template <std::size_t Column, typename Of>
auto at(const Of& of) {
  return of(Column);
}

}  // namespace

ResultRecord record_of_cells(const CellOf& cell, const TextOf& text) {
  ResultRecord r;
  r.timestamp_utc = at<column_of("timestamp_utc")>(text);
  r.run_id = at<column_of("run_id")>(text);
  r.host = at<column_of("host")>(text);
  r.kbench_version = at<column_of("kbench_version")>(text);
  r.throttle = at<column_of("throttle")>(text);
  r.referee = at<column_of("referee")>(text);
  r.kernel_file = at<column_of("kernel_file")>(text);
  r.kernel_sha256 = at<column_of("kernel_sha256")>(text);
  r.kernel_compiler = at<column_of("kernel_compiler")>(text);
  r.code = at<column_of("code")>(text);
  r.power_w = number(at<column_of("power_w")>(cell));
  r.temperature_c = number(at<column_of("temperature_c")>(cell));
  r.gpu_name = at<column_of("gpu_name")>(text);
  r.gpu_uuid = at<column_of("gpu_uuid")>(text);
  r.compute_capability = at<column_of("compute_capability")>(text);
  r.sm_count = number(at<column_of("sm_count")>(cell));
  r.l2_bytes = number(at<column_of("l2_bytes")>(cell));
  r.theoretical_gbps = number(at<column_of("theoretical_gbps")>(cell));
  r.copy_gbps = number(at<column_of("copy_gbps")>(cell));
  r.sm_clock_mhz = number(at<column_of("sm_clock_mhz")>(cell));
  r.device = at<column_of("device")>(text);
  r.family = at<column_of("family")>(text);
  r.plugin = at<column_of("plugin")>(text);
  r.plugin_version = at<column_of("plugin_version")>(text);
  r.dtype = at<column_of("dtype")>(text);
  r.op = at<column_of("op")>(text);
  r.shape = at<column_of("shape")>(text);
  r.block = at<column_of("block")>(text);
  r.params = at<column_of("params")>(text);
  r.seed = at<column_of("seed")>(text);
  r.cache = at<column_of("cache")>(text);
  r.repetition = at<column_of("repetition")>(text);
  const std::string_view status = at<column_of("status")>(cell);
  r.status = parse_status(std::string(status));
  if (!r.status) r.other_status = Text(status);
  r.message = at<column_of("message")>(text);
  r.median_us = number(at<column_of("median_us")>(cell));
  r.min_us = number(at<column_of("min_us")>(cell));
  r.noise = number(at<column_of("noise")>(cell));
  r.batch_us = number(at<column_of("batch_us")>(cell));
  r.host_us = number(at<column_of("host_us")>(cell));
  r.bytes = number(at<column_of("bytes")>(cell));
  r.flops = number(at<column_of("flops")>(cell));
  r.gbps = number(at<column_of("gbps")>(cell));
  r.gflops = number(at<column_of("gflops")>(cell));
  r.fraction_of_peak = number(at<column_of("fraction_of_peak")>(cell));
  r.energy_j = number(at<column_of("energy_j")>(cell));
  r.gb_per_j = number(at<column_of("gb_per_j")>(cell));
  r.gflop_per_j = number(at<column_of("gflop_per_j")>(cell));
  r.peak = at<column_of("peak")>(text);
  r.metrics = at<column_of("metrics")>(text);
  r.cupti_us = number(at<column_of("cupti_us")>(cell));
  r.cupti_kernels = number(at<column_of("cupti_kernels")>(cell));
  r.counters = at<column_of("counters")>(text);
  return r;
}

ResultRecord record_of(const ResultRow& row) {
  return record_of_cells([&](std::size_t column) { return row.cells()[column].c_str(); },
                         [&](std::size_t column) { return Text(row.cells()[column]); });
}

std::vector<std::string> key_cells(const ResultRecord& record, CaseColumns columns,
                                   const std::string& gpu) {
  std::vector<std::string> cells;
  for (const CaseColumn column : columns.list()) {
    cells.push_back(column == CaseColumn::gpu ? gpu : record.cell(column).str());
  }
  return cells;
}

}  // namespace kb
