#include "store/file_schema.hpp"

#include "store/case_columns.hpp"
#include "store/result_columns.hpp"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>

namespace kb {
namespace {

// `header` less `lacks`: an older header, given by the columns added since.
std::vector<std::string> without(const std::vector<std::string>& header,
                                 std::initializer_list<const char*> lacks) {
  std::vector<std::string> older;
  for (const auto& name : header) {
    if (std::none_of(lacks.begin(), lacks.end(), [&](const char* gone) { return name == gone; })) {
      older.push_back(name);
    }
  }
  if (older.size() + lacks.size() != header.size()) {
    throw std::logic_error("file_schema: an earlier header names a column the header lacks");
  }
  return older;
}

FileSchema make_results_schema() {
  FileSchema schema;
  schema.what = "results file";
  schema.header.assign(kResultHeader.begin(), kResultHeader.end());
  // Every header before them ended at `referee`: the columns after it (the fourth clock, the
  // kernel files, and whatever comes next) have only ever been added at the end.
  const auto referee = std::find(schema.header.begin(), schema.header.end(), "referee");
  const std::vector<std::string> then(schema.header.begin(), referee + 1);
  // Each header a kbench wrote before the results header grew only at the end, oldest first, with
  // the commit that wrote it first (`git log -p -- core/lib/store/result_columns.hpp
  // core/lib/store/result_schema.hpp core/src/result_schema.hpp runner/results_store.cpp`);
  // results/archive holds files of two.
  schema.earlier = {
      // ac08eee, 2026-11-21: the first runner (44 columns).
      without(then, {"params", "repetition", "timing", "sample_launches", "batch_us", "host_us",
                     "sm_clock_mhz", "temperature_c", "throttle", "energy_j", "power_w",
                     "gb_per_j", "gflop_per_j", "read_gbps", "l2_gbps", "referee"}),
      // a0d6087, 2026-11-22: cold cache, batch timing, NVML clocks (48).
      without(then, {"params", "repetition", "timing", "sample_launches", "host_us", "energy_j",
                     "power_w", "gb_per_j", "gflop_per_j", "read_gbps", "l2_gbps", "referee"}),
      // 1c05374, 2026-11-23: fair timing, the timing column (50).
      without(then, {"params", "repetition", "sample_launches", "energy_j", "power_w", "gb_per_j",
                     "gflop_per_j", "read_gbps", "l2_gbps", "referee"}),
      // 19be144, 2026-11-23: held samples of several launches (51).
      without(then, {"params", "repetition", "energy_j", "power_w", "gb_per_j", "gflop_per_j",
                     "read_gbps", "l2_gbps", "referee"}),
      // 312dad4, 2026-11-23: energy per case (55).
      without(then, {"params", "repetition", "read_gbps", "l2_gbps", "referee"}),
      // 2233785, 2026-11-23: --repetitions (56).
      without(then, {"params", "read_gbps", "l2_gbps", "referee"}),
      // 46b9f90, 2026-11-25: ABI version 3, the referee column (58); read_gbps and l2_gbps went
      // in before it.
      without(then, {"read_gbps", "l2_gbps"}),
  };
  // 35b1445, 2026-11-23 (ABI version 2, params: 57 columns) wrote the first header that is a
  // prefix of today's; 099f5b0 (read_gbps, l2_gbps, referee: 60) the next.
  schema.shortest_prefix = 57;
  return schema;
}

FileSchema make_samples_schema() {
  FileSchema schema;
  schema.what = "samples file";
  schema.header = kSampleCase.names();
  schema.header.insert(schema.header.end(), {"sample", "us"});
  // The samples' case columns sit before `sample` and `us`: each new one went in mid-way.
  schema.earlier = {
      without(schema.header, {"params", "repetition"}),  // a0d6087, 2026-11-22: --samples-out
      without(schema.header, {"params"}),                // 2233785, 2026-11-23: --repetitions
  };
  return schema;
}

}  // namespace

const FileSchema& results_schema() {
  static const FileSchema schema = make_results_schema();
  return schema;
}

const FileSchema& samples_schema() {
  static const FileSchema schema = make_samples_schema();
  return schema;
}

std::vector<std::string> header_names(const std::string& line) {
  std::vector<std::string> names;
  for (std::size_t start = 0; start <= line.size();) {
    const auto end = std::min(line.find(',', start), line.size());
    names.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  return names;
}

std::string name_list(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

HeaderVerdict judge_header(const FileSchema& schema, const std::vector<std::string>& found) {
  HeaderVerdict verdict;
  const auto& header = schema.header;
  if (found == header) {
    verdict.age = HeaderVerdict::Age::current;
    return verdict;
  }
  const bool prefix = schema.shortest_prefix > 0 && found.size() >= schema.shortest_prefix &&
                      found.size() < header.size() &&
                      std::equal(found.begin(), found.end(), header.begin());
  if (prefix || std::find(schema.earlier.begin(), schema.earlier.end(), found) !=
                    schema.earlier.end()) {
    verdict.age = HeaderVerdict::Age::older;
    for (const auto& name : header) {
      if (std::find(found.begin(), found.end(), name) == found.end()) {
        verdict.missing.push_back(name);
      }
    }
    return verdict;
  }
  verdict.age = HeaderVerdict::Age::other;
  for (std::size_t i = 0; i < header.size(); ++i) {
    verdict.difference_at = i;
    if (i >= found.size()) {
      verdict.difference = "it ends after " + std::to_string(i) + " columns";
      return verdict;
    }
    if (found[i] != header[i]) {
      verdict.difference = "column " + std::to_string(i + 1) + " is '" + found[i] +
                           "', expected '" + header[i] + "'";
      return verdict;
    }
  }
  verdict.difference_at = header.size();
  verdict.difference = "it has " + std::to_string(found.size()) + " columns, expected " +
                       std::to_string(header.size());
  return verdict;
}

}  // namespace kb
