#include "report.hpp"

#include "comparison.hpp"
#include "result_selection.hpp"
#include "comparison_format.hpp"
#include "gnuplot.hpp"
#include "input_error.hpp"
#include "markdown_table.hpp"

#include <boost/filesystem/operations.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace kb {
namespace {

using Align = MarkdownTable::Align;

// What a family is measured by and held against.
struct FamilyView {
  const char* metric;     // "gbps" or "gflops"
  const char* unit;       // axis and table unit
  std::string reference;  // the plugin drawn as the line to beat
  const char* reference_role;
};

FamilyView view_of(const std::string& family) {
  if (family == "matmul") return {"gflops", "GFLOP/s", "matmul/cublas", "cuBLAS"};
  return {"gbps", "GB/s", family + "/copy", "copy ceiling"};
}

// "8192x4096" -> 33554432: the x axis position of a shape.
double elements(const std::string& shape) {
  double product = 1;
  std::size_t start = 0;
  while (start <= shape.size()) {
    const auto end = std::min(shape.find('x', start), shape.size());
    product *= std::strtod(shape.substr(start, end - start).c_str(), nullptr);
    start = end + 1;
  }
  return product;
}

std::string slug(const std::string& text) {
  std::string out;
  for (char ch : text) {
    const bool keep = std::isalnum(static_cast<unsigned char>(ch));
    if (keep) out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

struct Measured {
  double value;  // the family's metric
  std::string block;
};

// One plot: a family, data type, op and cache state on one GPU.
struct Group {
  std::string family, dtype, op, cache, gpu;
  bool operator<(const Group& o) const {
    return std::tie(family, dtype, op, cache, gpu) < std::tie(o.family, o.dtype, o.op, o.cache, o.gpu);
  }
};

struct GroupData {
  // plugin -> shape -> the best block's value
  std::map<std::string, std::map<std::string, Measured, bool (*)(const std::string&, const std::string&)>> by_plugin;
  std::optional<double> copy_gbps;  // the device's measured copy bandwidth, from the latest row
  std::string copy_timestamp;
};

struct HeadlineRow {
  Group group;
  std::string shape, plugin;
  Measured measured;
  std::optional<double> fraction;  // of the reference plugin or of the copy bandwidth
};

bool headline_order(const HeadlineRow& a, const HeadlineRow& b) {
  // The GPUs of one size side by side.
  if (std::tie(a.group.dtype, a.group.op, a.group.cache) !=
      std::tie(b.group.dtype, b.group.op, b.group.cache)) {
    return std::tie(a.group.dtype, a.group.op, a.group.cache) <
           std::tie(b.group.dtype, b.group.op, b.group.cache);
  }
  if (a.shape != b.shape) return natural_less(a.shape, b.shape);
  return a.group.gpu < b.group.gpu;
}

std::string headline_table(const std::vector<HeadlineRow>& rows, const FamilyView& view,
                           bool several_caches, bool several_gpus) {
  const bool has_op = std::any_of(rows.begin(), rows.end(),
                                  [](const HeadlineRow& r) { return !r.group.op.empty(); });
  std::vector<std::string> header = {"dtype"};
  if (has_op) header.push_back("op");
  if (several_caches) header.push_back("cache");
  header.push_back("shape");
  if (several_gpus) header.push_back("GPU");
  const std::size_t left = header.size() + 2;
  for (std::string column : {"best plugin", "block"}) header.push_back(column);
  header.push_back(view.unit);
  header.push_back(std::string("of ") + view.reference_role);
  std::vector<Align> alignment(header.size(), Align::right);
  std::fill(alignment.begin(), alignment.begin() + left, Align::left);
  MarkdownTable table(header, alignment);
  for (const auto& r : rows) {
    std::vector<std::string> cells = {r.group.dtype};
    if (has_op) cells.push_back(r.group.op);
    if (several_caches) cells.push_back(r.group.cache);
    cells.push_back(r.shape);
    if (several_gpus) cells.push_back(r.group.gpu);
    cells.push_back(r.plugin);
    cells.push_back(r.measured.block);
    cells.push_back(format_measure(r.measured.value));
    cells.push_back(r.fraction ? format_measure(*r.fraction) : "—");
    table.add_row(std::move(cells));
  }
  return table.str();
}

struct Device {
  std::string name, uuid, compute_capability, sm_count, theoretical_gbps, copy_gbps, timestamp;
  std::set<std::string> runs;
  std::size_t rows = 0;
};

// The latest row of each case, as `compare` takes it.
std::vector<std::size_t> latest_rows(const std::vector<ResultRow>& rows,
                                     const std::vector<std::string>& gpus) {
  std::map<std::vector<std::string>, std::size_t> latest;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::string> key = {gpus[i]};
    for (const char* c : {"family", "plugin", "dtype", "op", "shape", "block", "cache"}) {
      key.push_back(rows[i].get(c));
    }
    const auto found = latest.find(key);
    if (found == latest.end() ||
        rows[i].get("timestamp_utc") >= rows[found->second].get("timestamp_utc")) {
      latest[key] = i;
    }
  }
  std::vector<std::size_t> indices;
  for (const auto& [key, index] : latest) indices.push_back(index);
  std::sort(indices.begin(), indices.end());
  return indices;
}

std::string group_title(const Group& g, bool several_caches, bool several_gpus) {
  std::string title = g.family + ", " + g.dtype;
  if (!g.op.empty()) title += ", " + g.op;
  if (several_caches) title += ", " + g.cache + " cache";
  if (several_gpus) title += " — " + g.gpu;
  return title;
}

std::string devices_table(const std::map<std::string, Device>& devices) {
  MarkdownTable table({"GPU", "UUID", "compute capability", "SMs", "theoretical GB/s",
                       "measured copy GB/s", "runs", "rows"},
                      {Align::left, Align::left, Align::left, Align::right, Align::right,
                       Align::right, Align::right, Align::right});
  for (const auto& [label, d] : devices) {
    table.add_row({label, d.uuid, d.compute_capability, d.sm_count, d.theoretical_gbps, d.copy_gbps,
                   std::to_string(d.runs.size()), std::to_string(d.rows)});
  }
  return table.str();
}

// The speed-up of each GPU over the one with the most cases, per plugin: a bar chart and its table.
std::string gpu_ratio_section(const std::vector<ResultRow>& rows, const std::string& dir,
                              std::vector<std::string>& scripts) {
  // Host plugins' rows say nothing about a GPU.
  std::vector<ResultRow> gpu_rows;
  std::copy_if(rows.begin(), rows.end(), std::back_inserter(gpu_rows),
               [](const ResultRow& row) { return !row.get("gpu_name").empty(); });
  // The baseline is the GPU with the most cases, so the most plugins have a ratio.
  const Comparison by_gpu = compare(gpu_rows, CompareRequest{CompareBy::gpu, Metric::time, ""});
  const PivotTable& all = by_gpu.tables.front();
  std::vector<std::size_t> cases(all.columns.size(), 0);
  for (const PivotRow& row : all.rows) {
    for (std::size_t c = 0; c < cases.size(); ++c) cases[c] += row.cells[c].state == PivotCell::State::ok;
  }
  const std::size_t most = static_cast<std::size_t>(
      std::max_element(cases.begin(), cases.end()) - cases.begin());
  const Comparison comparison =
      most == all.baseline
          ? by_gpu
          : compare(gpu_rows, CompareRequest{CompareBy::gpu, Metric::time, all.columns[most]});
  const PivotTable& table = comparison.tables.front();
  const std::string& baseline = table.columns[table.baseline];
  BarPlot plot;
  plot.name = "gpu_ratio";
  plot.title = "Speed-up over " + baseline + " per plugin (geometric mean over shared cases)";
  plot.y_label = "speed-up (time on " + baseline + " / time on the other GPU)";
  // A GPU that ran none of the baseline's cases has no ratio for any plugin: it gets no column
  // (and no empty series in the plot).
  std::vector<std::size_t> compared;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    const bool shares = std::any_of(comparison.per_plugin.begin(), comparison.per_plugin.end(),
                                    [c](const auto& plugin) { return plugin.geomean[c].has_value(); });
    if (c != table.baseline && shares) compared.push_back(c);
  }
  std::vector<std::string> header = {"plugin"};
  for (const std::size_t c : compared) {
    plot.series_titles.push_back(table.columns[c] + " / " + baseline);
    header.push_back(table.columns[c] + " / " + baseline);
  }
  std::vector<Align> alignment(header.size(), Align::right);
  alignment.front() = Align::left;
  MarkdownTable summary(header, alignment);
  for (const auto& plugin : comparison.per_plugin) {
    std::vector<std::optional<double>> values;
    std::vector<std::string> cells = {plugin.plugin};
    for (const std::size_t c : compared) {
      values.push_back(plugin.geomean[c]);
      cells.push_back(plugin.geomean[c] ? format_speedup(*plugin.geomean[c]) : "—");
    }
    if (std::none_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); })) {
      continue;
    }
    plot.categories.push_back(plugin.plugin);
    plot.values.push_back(std::move(values));
    summary.add_row(std::move(cells));
  }
  if (plot.categories.empty()) return "No case ran on more than one GPU; nothing to compare.\n";
  scripts.push_back(write_plot(plot, dir));
  return "Each bar: a plugin's median time on " + baseline +
         " over its time on the other GPU, as a geometric mean over the cases both GPUs ran "
         "(> 1 = faster than " + baseline + "). Per case: `kbench compare CSV... --by gpu`.\n\n"
         "![GPU vs GPU](gpu_ratio.png)\n\n" + summary.str();
}

}  // namespace

std::vector<std::string> write_report(const std::vector<ResultRow>& rows, const std::string& dir) {
  boost::system::error_code error;
  boost::filesystem::create_directories(dir, error);
  if (error) throw InputError("cannot create report folder '" + dir + "': " + error.message());

  const std::vector<std::string> gpus = gpu_labels(rows);
  std::map<std::string, Device> devices;
  std::set<std::string> caches;
  std::map<Group, GroupData> groups;
  for (std::size_t i : latest_rows(rows, gpus)) {
    const ResultRow& row = rows[i];
    Device& device = devices[gpus[i]];
    ++device.rows;
    device.runs.insert(row.get("run_id"));
    if (row.get("timestamp_utc") >= device.timestamp) {
      device = Device{row.get("gpu_name"), row.get("gpu_uuid"), row.get("compute_capability"),
                      row.get("sm_count"), row.get("theoretical_gbps"), row.get("copy_gbps"),
                      row.get("timestamp_utc"), std::move(device.runs), device.rows};
    }
    caches.insert(row.get("cache"));
    const FamilyView view = view_of(row.get("family"));
    const auto value = cell_number(row.get(view.metric));
    if (row.get("status") != "ok" || !value || !(*value > 0)) continue;
    GroupData& group = groups[{row.get("family"), row.get("dtype"), row.get("op"), row.get("cache"), gpus[i]}];
    auto& shapes = group.by_plugin.try_emplace(row.get("plugin"), natural_less).first->second;
    const auto held = shapes.find(row.get("shape"));
    if (held == shapes.end() || *value > held->second.value) {
      shapes[row.get("shape")] = Measured{*value, row.get("block")};
    }
    const auto copy = cell_number(row.get("copy_gbps"));
    if (copy && row.get("timestamp_utc") >= group.copy_timestamp) {
      group.copy_gbps = copy;
      group.copy_timestamp = row.get("timestamp_utc");
    }
  }
  if (groups.empty()) throw InputError("no ok row with GB/s or GFLOP/s to report");

  std::vector<std::string> scripts;
  std::set<std::string> run_ids;
  for (const auto& row : rows) run_ids.insert(row.get("run_id"));
  std::string md = "# kbench report\n\n" + std::to_string(rows.size()) + " rows from " +
                   std::to_string(run_ids.size()) + " run(s) on " +
                   std::to_string(devices.size()) + " device(s); where a case was run several "
                   "times, its latest row counts.\n\n## Devices\n\n" + devices_table(devices);
  const auto gpus_seen = std::count_if(devices.begin(), devices.end(), [](const auto& entry) {
    return entry.first.rfind("host ", 0) != 0;
  });
  if (gpus_seen > 1) md += "\n## GPU vs GPU\n\n" + gpu_ratio_section(rows, dir, scripts);

  const bool several_caches = caches.size() > 1, several_gpus = devices.size() > 1;
  std::map<std::string, std::vector<HeadlineRow>> headlines;  // per family
  std::map<std::string, std::string> plots_md;                // per family
  for (const auto& [group, data] : groups) {
    const FamilyView view = view_of(group.family);
    LinePlot plot;
    plot.name = slug(group.family + "_" + group.dtype + "_" + group.op +
                     (several_caches ? "_" + group.cache : "") + (several_gpus ? "_" + group.gpu : ""));
    plot.title = group_title(group, several_caches, several_gpus) +
                 " (best block per plugin and size)";
    plot.x_label = "problem size (shape; elements on a log scale)";
    plot.y_label = std::string(view.metric) == "gbps" ? "bandwidth (GB/s)" : "throughput (GFLOP/s)";
    std::map<double, std::string> ticks;
    std::set<std::string> shapes;
    for (const auto& [plugin, by_shape] : data.by_plugin) {
      PlotSeries series;
      series.title = plugin;
      if (plugin == view.reference) {
        series.style = PlotSeries::Style::reference;
        series.title += " (" + std::string(view.reference_role) + ")";
      }
      for (const auto& [shape, measured] : by_shape) {
        series.points.emplace_back(elements(shape), measured.value);
        ticks.emplace(elements(shape), shape);
        shapes.insert(shape);
      }
      std::sort(series.points.begin(), series.points.end());
      plot.series.push_back(std::move(series));
    }
    plot.x_ticks.assign(ticks.begin(), ticks.end());
    if (std::string(view.metric) == "gbps" && data.copy_gbps) {
      plot.ceiling = {"device copy bandwidth (" + format_measure(*data.copy_gbps) + " GB/s)",
                      *data.copy_gbps};
    }
    scripts.push_back(write_plot(plot, dir));
    plots_md[group.family] += "![" + plot.title + "](" + plot.name + ".png)\n\n";

    for (const auto& shape : shapes) {
      HeadlineRow best{group, shape, "", {0, ""}, std::nullopt};
      for (const auto& [plugin, by_shape] : data.by_plugin) {
        const auto at = by_shape.find(shape);
        if (plugin == view.reference || at == by_shape.end() || at->second.value <= best.measured.value) {
          continue;
        }
        best.plugin = plugin;
        best.measured = at->second;
      }
      if (best.plugin.empty()) continue;
      const auto reference = data.by_plugin.find(view.reference);
      if (reference != data.by_plugin.end() && reference->second.count(shape)) {
        best.fraction = best.measured.value / reference->second.at(shape).value;
      } else if (std::string(view.metric) == "gbps" && data.copy_gbps) {
        best.fraction = best.measured.value / *data.copy_gbps;
      }
      headlines[group.family].push_back(std::move(best));
    }
  }

  for (auto& [family, rows_of_family] : headlines) {
    const FamilyView view = view_of(family);
    std::sort(rows_of_family.begin(), rows_of_family.end(), headline_order);
    md += "\n## " + family + "\n\nThe best plugin per size other than " + view.reference +
          ", its " + view.unit + " at its best block, and the fraction of the " +
          view.reference_role + " it reaches: of " + view.reference + " at the same size" +
          (std::string(view.metric) == "gbps" ? " where it ran, else of the device's measured "
                                                "copy bandwidth"
                                              : "") +
          ".\n\n" + headline_table(rows_of_family, view, several_caches, several_gpus) + "\n" +
          plots_md[family];
  }

  const std::string path = dir + "/report.md";
  std::ofstream out(path);
  out << md;
  if (!out) throw InputError("cannot write '" + path + "'");
  return scripts;
}

}  // namespace kb
