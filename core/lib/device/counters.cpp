#include "device/counters.hpp"

#include "util/input_error.hpp"
#include "util/number_text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace kb {
namespace {

bool metric_char(char ch) {
  return std::islower(static_cast<unsigned char>(ch)) ||
         std::isdigit(static_cast<unsigned char>(ch)) || ch == '_';
}

// `unit__counter.rollup[.submetric]`: lower case, digits and underscores, a double underscore in
// the first part, at least one dot.
bool metric_name_syntax(const std::string& word) {
  const auto dot = word.find('.');
  if (dot == std::string::npos || dot == 0 || word.back() == '.') return false;
  const std::string base = word.substr(0, dot);
  const auto unit_end = base.find("__");
  if (unit_end == std::string::npos || unit_end == 0 || unit_end + 2 >= base.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (word[i] == '.') {
      if (i + 1 < word.size() && word[i + 1] == '.') return false;
      continue;
    }
    if (!metric_char(word[i])) return false;
  }
  return true;
}

const NamedCounter* find_named(const std::string& word) {
  for (const NamedCounter& counter : named_counters()) {
    if (word == counter.label || word == counter.name) return &counter;
  }
  return nullptr;
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string known_words() {
  std::string sets, names;
  for (const CounterSet& set : counter_sets()) sets += (sets.empty() ? "" : ", ") + std::string(set.name);
  for (const NamedCounter& c : named_counters()) names += (names.empty() ? "" : ", ") + std::string(c.label);
  return "sets: " + sets + "; counters: " + names +
         "; or a metric name of the profiling API, such as dram__bytes_read.sum";
}

}  // namespace

const std::vector<NamedCounter>& named_counters() {
  static const std::vector<NamedCounter> counters = {
      {"dram_throughput", "dram__throughput.avg.pct_of_peak_sustained_elapsed", "%", false,
       "DRAM throughput, % of the theoretical bandwidth over the kernels' time (with "
       "dram_read_bytes and dram_write_bytes; else the profiler's, over the profiled range)"},
      {"dram_read_bytes", "dram__bytes_read.sum", "bytes", true, "bytes read from DRAM"},
      {"dram_write_bytes", "dram__bytes_write.sum", "bytes", true, "bytes written to DRAM"},
      {"l2_hit_rate", "lts__t_sector_hit_rate.pct", "%", false, "L2 sector hit rate"},
      {"l2_throughput", "lts__throughput.avg.pct_of_peak_sustained_elapsed", "%", false,
       "L2 throughput, % of its peak over the profiled range"},
      {"l1_hit_rate", "l1tex__t_sector_hit_rate.pct", "%", false, "L1/texture sector hit rate"},
      {"global_load_sectors_per_request",
       "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", "ratio", true,
       "32-byte sectors per global load request: 4 for a coalesced warp of 4-byte loads, 32 for "
       "one of strided ones"},
      {"global_store_sectors_per_request",
       "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio", "ratio", true,
       "32-byte sectors per global store request"},
      {"shared_load_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
       "count", true, "shared-memory bank conflicts of loads (extra wavefronts)"},
      {"shared_store_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
       "count", true, "shared-memory bank conflicts of stores (extra wavefronts)"},
      {"achieved_occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active", "%", false,
       "achieved occupancy: active warps, % of the SM's maximum"},
      {"instructions", "smsp__inst_executed.sum", "count", true, "warp instructions executed"},
      {"threads_per_instruction", "smsp__thread_inst_executed_per_inst_executed.ratio", "ratio",
       false, "active threads per executed warp instruction: 32 without divergence"},
      {"sm_throughput", "sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", false,
       "SM throughput, % of its peak over the profiled range (which holds the wait before the "
       "kernel: short kernels read low)"},
      {"gpu_time", "gpu__time_duration.sum", "ns", true, "GPU time of the profiled range"},
  };
  return counters;
}

const std::vector<CounterSet>& counter_sets() {
  static const std::vector<CounterSet> sets = {
      {"default",
       {"dram_throughput", "dram_read_bytes", "dram_write_bytes", "l2_hit_rate",
        "shared_load_bank_conflicts", "shared_store_bank_conflicts", "achieved_occupancy",
        "instructions"},
       "what explains most rows: DRAM, L2, bank conflicts, occupancy, instructions"},
      {"memory",
       {"dram_throughput", "dram_read_bytes", "dram_write_bytes", "l2_hit_rate",
        "global_load_sectors_per_request", "global_store_sectors_per_request"},
       "where the bytes go: DRAM, L2 and coalescing"},
      {"shared", {"shared_load_bank_conflicts", "shared_store_bank_conflicts", "l1_hit_rate"},
       "the shared memory's bank conflicts"},
      {"compute",
       {"achieved_occupancy", "instructions", "threads_per_instruction", "sm_throughput"},
       "the SMs: occupancy, instructions, divergence"},
      {"all", {}, "every counter above"},
  };
  return sets;
}

std::vector<Counter> parse_counter_list(const std::string& list) {
  std::vector<Counter> counters;
  const auto add = [&](const std::string& label, const std::string& name) {
    const bool seen = std::any_of(counters.begin(), counters.end(),
                                  [&](const Counter& c) { return c.name == name; });
    if (!seen) counters.push_back({label, name});
  };
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto end = std::min(list.find(',', start), list.size());
    const std::string word = trimmed(list.substr(start, end - start));
    start = end + 1;
    if (word.empty()) throw InputError("--metrics '" + list + "' holds an empty name");
    const auto set = std::find_if(counter_sets().begin(), counter_sets().end(),
                                  [&](const CounterSet& s) { return word == s.name; });
    if (set != counter_sets().end()) {
      if (set->labels.empty()) {
        for (const NamedCounter& c : named_counters()) add(c.label, c.name);
      }
      for (const char* label : set->labels) add(label, find_named(label)->name);
    } else if (const NamedCounter* named = find_named(word)) {
      add(named->label, named->name);
      // Its percentage is taken over the kernels' time from these (set_dram_throughput).
      if (word == "dram_throughput") {
        for (const char* bytes : {"dram_read_bytes", "dram_write_bytes"}) {
          add(bytes, find_named(bytes)->name);
        }
      }
    } else if (metric_name_syntax(word)) {
      add(word, word);
    } else {
      throw InputError("--metrics: unknown counter '" + word + "' (" + known_words() + ")");
    }
  }
  return counters;
}

std::string counters_text(const std::vector<std::pair<std::string, double>>& values) {
  std::string text;
  for (const auto& [label, value] : values) {
    const bool whole = std::isfinite(value) && value == std::floor(value) && std::abs(value) < 1e15;
    text += (text.empty() ? "" : ";") + label + "=" +
            (whole ? fixed_text(value, 0) : significant_text(value));
  }
  return text;
}

void set_dram_throughput(std::vector<std::pair<std::string, double>>& values, double kernel_us,
                         double dram_gbps) {
  const auto find = [&](const char* label) {
    return std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == label; });
  };
  const auto throughput = find("dram_throughput"), read = find("dram_read_bytes"),
             written = find("dram_write_bytes");
  if (throughput == values.end() || read == values.end() || written == values.end()) return;
  if (!(kernel_us > 0) || !(dram_gbps > 0)) return;
  throughput->second = 100 * (read->second + written->second) / (kernel_us * 1e3) / dram_gbps;
}

std::vector<std::pair<std::string, double>> parse_counters_text(const std::string& text) {
  std::vector<std::pair<std::string, double>> values;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = std::min(text.find(';', start), text.size());
    const std::string item = text.substr(start, end - start);
    start = end + 1;
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    const std::string number = item.substr(eq + 1);
    char* stop = nullptr;
    const double value = std::strtod(number.c_str(), &stop);
    if (number.empty() || *stop != '\0') continue;
    values.emplace_back(item.substr(0, eq), value);
  }
  return values;
}

std::optional<double> counter_value(const std::string& text, const std::string& counter) {
  const NamedCounter* named = find_named(counter);
  for (const auto& [label, value] : parse_counters_text(text)) {
    if (label == counter || (named && (label == named->label || label == named->name))) {
      return value;
    }
  }
  return std::nullopt;
}

bool counter_smaller_is_better(const std::string& counter) {
  if (const NamedCounter* named = find_named(counter)) return named->smaller_is_better;
  for (const char* larger : {".pct", "pct_of_peak", "per_second", "hit_rate"}) {
    if (counter.find(larger) != std::string::npos) return false;
  }
  return true;
}

bool is_counter_name(const std::string& word) {
  return find_named(word) != nullptr || metric_name_syntax(word);
}

std::string counter_label(const std::string& word) {
  const NamedCounter* named = find_named(word);
  return named ? named->label : word;
}

}  // namespace kb
