#include "report/html_report.hpp"

#include "analysis/comparison.hpp"
#include "analysis/gpu_model.hpp"
#include "analysis/roofline.hpp"
#include "analysis/scaling.hpp"
#include "report/family_report.hpp"
#include "report/html_assets.hpp"
#include "report/html_page.hpp"
#include "report/json_columns.hpp"
#include "report/markdown_html.hpp"
#include "report/plot_stem.hpp"
#include "store/result_selection.hpp"
#include "store/version.hpp"

#include <algorithm>
#include <map>

namespace kb {
namespace {

using nlohmann::json;

json models_json(const std::vector<GpuModel>& models) {
  json out = json::array();
  for (const auto& m : models) {
    json peaks = json::object();
    for (const char* precision : {"fp32", "fp64", "tf32", "bf16", "fp16"}) {
      if (const auto peak = m.peak_gflops(precision)) peaks[precision] = json_number(*peak);
    }
    out.push_back({{"label", m.label},
                   {"cc", m.compute_capability},
                   {"cards", m.cards.size()},
                   {"copy_gbps", json_number(m.copy_gbps)},
                   {"peaks", peaks}});
  }
  return out;
}

// Every case of every family, each GPU model's value as `compare --by gpu` pools it (the median of
// each card's latest row), with the row behind it for the hover: one point per case and model.
json points_json(const std::map<std::string, RowsView>& families,
                 const std::map<std::string, FamilyView>& views) {
  std::map<std::string, std::vector<std::string>> text;
  std::map<std::string, std::vector<std::optional<double>>> numbers;
  std::size_t count = 0;
  for (const auto& [family, rows] : families) {
    const Comparison comparison = compare(rows, {CompareBy::gpu, views.at(family).metric, ""});
    const PivotTable& table = comparison.tables.front();
    for (const PivotRow& row : table.rows) {
      for (std::size_t c = 0; c < table.columns.size(); ++c) {
        const PivotCell& cell = row.cells[c];
        if (cell.state != PivotCell::State::ok) continue;
        ++count;
        for (const char* key : {"family", "plugin", "dtype", "op", "shape", "block", "params",
                                "cache"}) {
          text[key].push_back(row.key[key_index(table, key)]);
        }
        text["model"].push_back(table.columns[c]);
        numbers["value"].push_back(cell.value);
        numbers["noise"].push_back(cell.noise);
        numbers["spread"].push_back(cell.spread);
        numbers["cards"].push_back(static_cast<double>(cell.cards));
        const ResultRecord& source = rows[*cell.source];
        text["run_id"].push_back(source.run_id);
        text["kbench_version"].push_back(source.kbench_version);
        text["timestamp_utc"].push_back(source.timestamp_utc);
        text["throttle"].push_back(source.throttle);
        text["counters"].push_back(source.counters);
        text["kernels"].push_back(source.kernels);
        numbers["median_us"].push_back(source.median_us);
        numbers["cupti_us"].push_back(source.cupti_us);
        numbers["sm_clock_mhz"].push_back(source.sm_clock_mhz);
        numbers["temperature_c"].push_back(source.temperature_c);
        numbers["energy_j"].push_back(source.energy_j);
        numbers["power_w"].push_back(source.power_w);
      }
    }
  }
  JsonColumns columns(count);
  for (const auto& [name, values] : text) columns.add_text(name, values);
  for (const auto& [name, values] : numbers) columns.add_numbers(name, values);
  return columns.json();
}

json case_scaling_json(const CaseScaling& c) {
  return {{"plugin", c.plugin},       {"dtype", c.dtype},
          {"op", c.op},               {"shape", c.shape},
          {"block", c.block},         {"bound", c.bound},
          {"measured", json_number(c.measured)},
          {"within_noise", c.within_noise},
          {"predicted", json_number(c.predicted)},
          {"efficiency", json_number(c.efficiency)}};
}

// The model's part of its scaling plot's stem, as report.md names the plot (scaling_STEM.png):
// plot_stem gives one (kind, name) the same stem throughout a process, so the page's chart finds
// the markdown's image whatever the model is called.
std::string scaling_stem(const std::string& model) {
  const std::string stem = plot_stem("scaling", model);
  const std::string prefix = "scaling_";
  return stem.rfind(prefix, 0) == 0 ? stem.substr(prefix.size()) : stem;
}

json scaling_json(const std::vector<ModelScaling>& scalings) {
  json out = json::array();
  for (const auto& s : scalings) {
    json plugins = json::array();
    for (const auto& p : s.plugins) {
      plugins.push_back({{"plugin", p.plugin},
                         {"bound", p.bound},
                         {"cases", p.cases},
                         {"measured", json_number(p.measured)},
                         {"predicted", json_number(p.predicted)},
                         {"efficiency", json_number(p.efficiency)},
                         {"as_predicted", p.as_predicted()},
                         {"largest", case_scaling_json(p.largest)}});
    }
    out.push_back({{"baseline", s.baseline},
                   {"other", s.other},
                   {"slug", scaling_stem(s.other)},
                   {"copy_ratio", json_number(s.copy_ratio)},
                   {"tolerance", kScalingTolerance},
                   {"plugins", plugins}});
  }
  return out;
}

json roofline_json(const Roofline& roofline) {
  json models = json::array(), points = json::array();
  for (const auto& m : roofline.models) {
    json peaks = json::array();
    for (const auto& [precision, peak] : m.peaks) peaks.push_back({precision, json_number(peak)});
    models.push_back({{"model", m.model}, {"copy_gbps", json_number(m.copy_gbps)}, {"peaks", peaks}});
  }
  for (const auto& p : roofline.points) {
    points.push_back({{"model", p.model},   {"family", p.family},
                      {"plugin", p.plugin}, {"dtype", p.dtype},
                      {"op", p.op},         {"shape", p.shape},
                      {"block", p.block},   {"bound", p.bound},
                      {"intensity", json_number(p.intensity)},
                      {"gflops", json_number(p.gflops)},
                      {"roof", json_number(p.roof)}});
  }
  return {{"models", models}, {"points", points}, {"without_flops", roofline.without_flops}};
}

// The markdown's images become the charts that replace them: the scaling bars and the roofline
// on the first page. The families' PNGs are the explorer's job.
std::string chart_for(const std::string& file, const std::string& alt) {
  if (file == "roofline.png") {
    return "<div class=\"chart\" data-chart=\"roofline\" aria-label=\"" + html_escape(alt) +
           "\"></div>\n";
  }
  if (file.rfind("scaling_", 0) == 0) {
    const std::string model = file.substr(8, file.size() - 8 - 4);
    return "<div class=\"chart\" data-chart=\"scaling\" data-model=\"" + html_escape(model) +
           "\" aria-label=\"" + html_escape(alt) + "\"></div>\n";
  }
  return "";
}

}  // namespace

void write_html_report(RowsView rows, const FamilyTable& described, const std::string& markdown,
                       const std::string& path) {
  // The families as write_report reports them: those with an ok row with their measure.
  std::map<std::string, RowsView> families;
  for (auto& [family, positions] : positions_by_family(rows, false)) {
    families.emplace(family, rows.subset(positions));
  }
  std::map<std::string, FamilyView> views;
  json families_json = json::array();
  for (auto it = families.begin(); it != families.end();) {
    const FamilyView view = view_of(described.find(it->first), it->second);
    const bool measured = std::any_of(it->second.begin(), it->second.end(), [&](const ResultRecord& r) {
      return r.ok() && metric_value(r, view.metric);
    });
    if (!measured) {
      it = families.erase(it);
      continue;
    }
    views.emplace(it->first, view);
    families_json.push_back({{"name", it->first},
                             {"metric", metric_name(view.metric)},
                             {"unit", view.unit},
                             {"reference", view.reference_plugin}});
    ++it;
  }
  const std::vector<GpuModel> models = gpu_models(rows);

  const auto details = markdown.find("\n# Details\n");
  const std::string lead = markdown.substr(0, details);
  const std::string rest = details == std::string::npos ? "" : markdown.substr(details + 1);
  HtmlPage page;
  page.title = "kbench report";
  page.script = kReportJs;
  page.body =
      "<nav class=\"top\"><a href=\"#kbench-report\">Report</a> <a href=\"#explore\">Explore</a> "
      "<a href=\"#details\">Details</a><span class=\"generated\">kbench " +
      html_escape(kKbenchVersion) + "</span></nav>\n<main>\n"
      "<noscript><p class=\"warning\">The charts need JavaScript; the tables are all here."
      "</p></noscript>\n<section id=\"lead\">\n" +
      markdown_html(lead, chart_for) +
      "</section>\n<section id=\"explore\">\n<h2>Explore</h2>\n<p>Every case of the report: a "
      "family, its data type and op, all sizes or one shape. Each point is the case's value on a "
      "GPU model as <code>kbench compare --by gpu</code> pools it (the median over the model's "
      "cards of each card's latest row); over all sizes, each plugin at its best block. Hover a "
      "point for the row behind it; click a plugin to hide or show it.</p>\n"
      "<div id=\"explorer\"></div>\n</section>\n"
      "<details id=\"details\"><summary>Details: the cards, the scaling per case, each family's "
      "table</summary>\n" +
      markdown_html(rest, [](const std::string&, const std::string&) { return std::string(); }) +
      "</details>\n</main>\n";
  page.data = {{"kind", "report"},
               {"models", models_json(models)},
               {"families", families_json},
               {"points", points_json(families, views)},
               {"scaling", scaling_json(expected_scaling(rows, models))},
               {"roofline", roofline_json(build_roofline(rows, models))}};
  write_html_page(page, path);
}

}  // namespace kb
