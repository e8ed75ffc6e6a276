// The columns of a results row, defined once: each column's name, in file order, and what a row
// read back keeps of it (ResultRecord, result_record.hpp). The header, the writer (ResultCells),
// the reader and a case's key all come from this list. results/README.md documents each column;
// changing the list changes the header, and a file with another header is refused, never mixed.
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kb {

// X(column, kept): `kept` is how a read row keeps the cell: `text` (a Text of the same name),
// `number` (an OptionalNumber of the same name), `status` (the status enum, and the word as
// written where this kbench does not know it), or `written` (not kept: only the file has it).
#define KBENCH_RESULT_COLUMNS(X)                                                                  \
  X(timestamp_utc, text) X(run_id, text) X(host, text) X(kbench_version, text)                     \
  X(gpu_name, text) X(gpu_uuid, text) X(compute_capability, text) X(sm_count, number)              \
  X(l2_bytes, number) X(mem_bus_bits, written) X(mem_clock_mhz, written)                          \
  X(theoretical_gbps, number) X(copy_gbps, number) X(driver_version, written)                     \
  X(runtime_version, written) X(device, text) X(family, text) X(plugin, text)                     \
  X(plugin_version, text) X(dtype, text) X(op, text) X(shape, text) X(block, text)                \
  X(params, text) X(grid, written) X(seed, text) X(cache, text) X(repetition, text)               \
  X(status, status) X(message, text) X(samples, written) X(median_us, number) X(min_us, number)   \
  X(mean_us, written) X(stddev_us, written) X(noise, number) X(settled, written)                  \
  X(timing, written) X(sample_launches, written) X(batch_us, number) X(host_us, number)           \
  X(gbps, number) X(gflops, number) X(peak, text) X(fraction_of_peak, number)                     \
  X(max_rel_error, written) X(tolerance, written) X(bytes, number) X(flops, number)               \
  X(metrics, text) X(sm_clock_mhz, number) X(temperature_c, number) X(throttle, text)             \
  X(energy_j, number) X(power_w, number) X(gb_per_j, number) X(gflop_per_j, number)               \
  X(read_gbps, written) X(l2_gbps, written) X(referee, text) X(cupti_us, number)                  \
  X(cupti_kernels, number) X(counters, text) X(kernel_file, text) X(kernel_sha256, text)          \
  X(kernel_compiler, text) X(code, text) X(kernels, text)

// A results row as the file holds it: each column's text, unescaped, by name ("" for a cell the
// row leaves empty).
struct ResultCells {
#define KBENCH_CELL(column, kept) std::string column;
  KBENCH_RESULT_COLUMNS(KBENCH_CELL)
#undef KBENCH_CELL
};

#define KBENCH_NAME(column, kept) #column,
inline constexpr std::array kResultHeader = {KBENCH_RESULT_COLUMNS(KBENCH_NAME)};
#undef KBENCH_NAME
inline constexpr std::size_t kResultColumnCount = kResultHeader.size();

// What a file must have to be read as a results file at all (an older kbench's lacks later columns).
inline constexpr std::array kRequiredColumns = {"run_id", "plugin", "status", "median_us"};

// A column's place, where the name is known when compiling: column_of("median_us") as a template
// argument or a constant is checked then (a name not in the list fails to compile).
constexpr std::size_t column_of(std::string_view column) {
  for (std::size_t i = 0; i < kResultColumnCount; ++i) {
    if (column == kResultHeader[i]) return i;
  }
  throw std::logic_error("unknown result column");
}

// Column `i`'s cell of a row, in file order.
std::string& cell_at(ResultCells& row, std::size_t i);
const std::string& cell_at(const ResultCells& row, std::size_t i);
// Every cell, in file order.
std::vector<std::string> cells_in_order(const ResultCells& row);

}  // namespace kb
