// The hardware counters `kbench run --metrics` can put in a row (the `counters` column), by the
// short names rows and `compare --metric` use, and the named sets of them. A counter is a metric
// of NVIDIA's profiling API (the names Nsight Compute shows, e.g.
// `dram__throughput.avg.pct_of_peak_sustained_elapsed`), read over one launch of the case by the
// CUPTI range profiler (measure/counter_profiler.hpp). Pure text and tables: parsed and tested
// without a GPU.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kb {

struct Counter {
  std::string label;  // the key in the `counters` cell: a short name, or the metric's own
  std::string name;   // the profiling API's metric name
};

struct NamedCounter {
  const char* label;
  const char* name;
  const char* unit;          // "%", "bytes", "count", "ratio", "ns"
  bool smaller_is_better;    // bytes, conflicts, instructions; throughputs and hit rates are larger
  const char* meaning;
};

// Every counter known by a short name, in the order a cell lists them.
const std::vector<NamedCounter>& named_counters();

struct CounterSet {
  const char* name;
  std::vector<const char*> labels;
  const char* meaning;
};
// default, memory, shared, compute, all.
const std::vector<CounterSet>& counter_sets();

// `--metrics LIST`: comma-separated set names, short names, or metric names of the profiling API
// (`unit__counter.rollup...`: taken as they are, the worker's CUPTI judges them). Each counter
// once, in the order given. An unknown word is an InputError naming it and what is known.
std::vector<Counter> parse_counter_list(const std::string& list);

// The `counters` cell: "label=value;label=value". Counts print whole, ratios to six digits.
std::string counters_text(const std::vector<std::pair<std::string, double>>& values);

// dram_throughput, where it was asked for with the DRAM bytes: the bytes read and written over
// the kernels' time (kernel_us), as a percentage of the theoretical bandwidth (dram_gbps). Left
// as the profiler gave it when a figure is missing.
void set_dram_throughput(std::vector<std::pair<std::string, double>>& values, double kernel_us,
                         double dram_gbps);
// Back: the pairs a cell holds, those that parse (an empty or odd cell is none).
std::vector<std::pair<std::string, double>> parse_counters_text(const std::string& text);
// One counter of a cell, by its label or (for a short name) by its metric name.
std::optional<double> counter_value(const std::string& text, const std::string& counter);

// Whether a counter's smaller values are the better ones: by the table for a short name; for
// another metric name, by its rollup: `.pct`, `pct_of_peak`, `per_second` and `hit_rate` are
// larger-is-better, everything else (sums: bytes, instructions, conflicts) smaller.
bool counter_smaller_is_better(const std::string& counter);
// Whether `word` names a counter `compare --metric` can read: a short name or a metric name.
bool is_counter_name(const std::string& word);
// The short name of a metric name, or the word itself.
std::string counter_label(const std::string& word);

}  // namespace kb
