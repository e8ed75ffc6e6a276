#include "report/html_history.hpp"

#include "analysis/gpu_model.hpp"
#include "analysis/metric.hpp"
#include "report/html_assets.hpp"
#include "report/html_page.hpp"
#include "report/json_columns.hpp"
#include "report/markdown_html.hpp"
#include "store/key_columns.hpp"
#include "store/result_selection.hpp"
#include "store/version.hpp"
#include "util/number_text.hpp"
#include "util/statistics.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace kb {
namespace {

using nlohmann::json;

std::string joined(const std::set<std::string>& values) {
  std::string text;
  for (const auto& value : values) {
    if (!value.empty()) text += (text.empty() ? "" : ", ") + value;
  }
  return text;
}

std::optional<double> median_of(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  return summarize(values).median;
}

// What a case's rows in one run say beside its median: the spread of its repetitions' medians
// (the band), the SM clock and board energy (medians over the rows) and the throttle reasons.
struct PointRows {
  std::vector<double> medians, clocks, energies;
  std::set<std::string> throttles;
};

// A key cell of the history's columns, by name; the GPU as its model's label.
std::string key_cell(const ResultRecord& record, const std::string& name, const std::string& gpu) {
  if (name == "gpu") return gpu;
  for (unsigned c = 0; c <= static_cast<unsigned>(CaseColumn::repetition); ++c) {
    if (name == column_name(static_cast<CaseColumn>(c))) return record.cell(static_cast<CaseColumn>(c));
  }
  return "";
}

// The page charts the latest this many runs of a longer history (three years of nightlies):
// history.md's tables keep every run, the page stays one a browser opens.
constexpr std::size_t kPageRuns = 1000;

}  // namespace

void write_html_history(const History& history, std::vector<ResultRecord> rows,
                        const GateRequest& request, const std::string& path) {
  const std::size_t all_runs = history.runs.size(), cases = history.cases.size();
  // The runs the page holds: [first, all_runs), numbered from first.
  const std::size_t first = all_runs > kPageRuns ? all_runs - kPageRuns : 0;
  const std::size_t runs = all_runs - first;
  std::map<std::string, std::size_t> run_of;
  for (std::size_t k = 0; k < runs; ++k) run_of[history.runs[first + k].run_id] = k;
  std::map<std::vector<std::string>, std::size_t> case_of;
  for (std::size_t c = 0; c < cases; ++c) case_of[history.cases[c].key] = c;

  // The GPUs as the whole file names them; then the rows of the page's runs alone (a long
  // history's others are gigabytes).
  std::vector<std::string> models;
  for (const auto& model : gpu_models(rows)) models.push_back(model.label);
  std::vector<Text> labels = gpu_labels(rows);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (run_of.count(rows[i].run_id) == 0) continue;
    rows[kept] = std::move(rows[i]);
    labels[kept++] = labels[i];
  }
  rows.resize(kept);
  rows.shrink_to_fit();
  labels.resize(kept);
  labels.shrink_to_fit();

  // The rows of each case and run, keyed as the gate keys them (history.key_columns, the GPU as
  // its model's label).
  std::vector<PointRows> points(cases * runs);
  std::vector<std::set<std::string>> versions(runs), hosts(runs);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ResultRecord& row = rows[i];
    const auto run = run_of.find(row.run_id);
    versions[run->second].insert(row.kbench_version);
    hosts[run->second].insert(row.host);
    // A median that is no measurement (0, -1, 1e308) is left out, as the gate leaves it out.
    const auto median = metric_value(row, Metric::time);
    if (!row.ok() || !median) continue;
    std::vector<std::string> key;
    for (const auto& column : history.key_columns) key.push_back(key_cell(row, column, labels[i]));
    const auto found = case_of.find(key);
    if (found == case_of.end()) continue;
    PointRows& point = points[found->second * runs + run->second];
    point.medians.push_back(*median);
    if (row.sm_clock_mhz) point.clocks.push_back(*row.sm_clock_mhz);
    if (row.energy_j) point.energies.push_back(*row.energy_j);
    if (!row.throttle.empty()) point.throttles.insert(row.throttle);
  }

  JsonColumns run_columns(runs);
  {
    std::vector<std::string> ids, started, version_text, host_text;
    std::vector<std::optional<double>> counts;
    for (std::size_t k = 0; k < runs; ++k) {
      ids.push_back(history.runs[first + k].run_id);
      started.push_back(history.runs[first + k].started_text);
      version_text.push_back(joined(versions[k]));
      host_text.push_back(joined(hosts[k]));
      counts.push_back(static_cast<double>(history.runs[first + k].cases));
    }
    run_columns.add_text("id", ids);
    run_columns.add_text("started", started);
    run_columns.add_text("kbench_version", version_text);
    run_columns.add_text("hosts", host_text);
    run_columns.add_numbers("cases", counts);
  }

  JsonColumns case_columns(cases);
  for (std::size_t column = 0; column < history.key_columns.size(); ++column) {
    std::vector<std::string> values;
    for (const auto& c : history.cases) values.push_back(c.key[column]);
    case_columns.add_text(history.key_columns[column], values);
  }

  // Case by case, run by run: value [c * runs + k].
  JsonColumns values(cases * runs);
  {
    std::vector<std::optional<double>> median, low, high, clock, energy;
    std::vector<std::string> throttle;
    for (std::size_t c = 0; c < cases; ++c) {
      for (std::size_t k = 0; k < runs; ++k) {
        const PointRows& point = points[c * runs + k];
        median.push_back(history.cases[c].median[first + k]);
        const bool spread = history.cases[c].median[first + k] && !point.medians.empty();
        low.push_back(spread ? std::optional<double>(*std::min_element(point.medians.begin(),
                                                                       point.medians.end()))
                             : std::nullopt);
        high.push_back(spread ? std::optional<double>(*std::max_element(point.medians.begin(),
                                                                        point.medians.end()))
                              : std::nullopt);
        clock.push_back(median_of(point.clocks));
        energy.push_back(median_of(point.energies));
        throttle.push_back(joined(point.throttles));
      }
    }
    values.add_numbers("median", median, 5);
    values.add_numbers("low", low);
    values.add_numbers("high", high);
    values.add_numbers("clock", clock);
    values.add_numbers("energy", energy, 3);
    values.add_text("throttle", throttle);
  }

  const auto shown_regressions = static_cast<std::size_t>(
      std::count_if(history.regressions.begin(), history.regressions.end(),
                    [&](const Regression& r) { return r.run >= first; }));
  JsonColumns regression_columns(shown_regressions);
  {
    std::vector<std::optional<double>> run, case_index, before, after, effect, p;
    for (const auto& r : history.regressions) {
      if (r.run < first) continue;
      run.push_back(static_cast<double>(r.run - first));
      case_index.push_back(static_cast<double>(r.case_index));
      before.push_back(r.before_us);
      after.push_back(r.after_us);
      effect.push_back(r.effect);
      p.push_back(r.p_value);
    }
    regression_columns.add_numbers("run", run, 17);
    regression_columns.add_numbers("case", case_index, 17);
    regression_columns.add_numbers("before", before, 5);
    regression_columns.add_numbers("after", after, 5);
    regression_columns.add_numbers("effect", effect);
    regression_columns.add_numbers("p", p, 3);
  }

  // The columns worth showing: those that tell the cases apart (as history.md's tables).
  History shown;
  shown.key_columns = history.key_columns;
  for (const CaseHistory& c : history.cases) shown.cases.push_back({c.key, {}, {}});
  drop_constant_keys(shown.key_columns, shown.cases);

  const double allowed = request.fail_slower.value_or(request.min_effect);
  const std::string rule = "slower by more than " + percent_text(allowed) + " (at least " +
                           percent_text(request.min_effect) + " with p < " +
                           significant_text(request.alpha) + " in a Mann-Whitney U test over the "
                           "repetitions)";
  HtmlPage page;
  page.title = "kbench history";
  page.script = kHistoryJs;
  page.body =
      "<nav class=\"top\"><a href=\"#nightly-history\">History</a> <a href=\"#regressions\">"
      "Regressions</a> <a href=\"#runs\">Runs</a><span class=\"generated\">kbench " +
      html_escape(kKbenchVersion) + "</span></nav>\n<main>\n<h1 id=\"nightly-history\">Nightly "
      "history</h1>\n<p>" + (first > 0 ? "The latest " + std::to_string(runs) + " of " : "") +
      std::to_string(all_runs) + " runs of " + std::to_string(cases) + " cases, oldest first, evenly spaced (each run's start in its label). A line is one case: "
      "its median time in each run (the median of its repetitions' medians, the cards of a GPU "
      "model pooled), the band the range of its repetitions. A red ring is a regression: the gate "
      "(<code>kbench compare</code>, each run against the one before) failed the case as " +
      html_escape(rule) + ".</p>\n<noscript><p class=\"warning\">The charts need JavaScript."
      "</p></noscript>\n<div id=\"history\"></div>\n</main>\n";
  page.data = {{"kind", "history"},
               {"rule", {{"alpha", request.alpha},
                         {"min_effect", request.min_effect},
                         {"fail_slower", allowed},
                         {"text", rule}}},
               {"models", models},
               {"key_columns", history.key_columns},
               {"shown_columns", shown.key_columns},
               {"runs", run_columns.json()},
               {"cases", case_columns.json()},
               {"values", values.json()},
               {"regressions", regression_columns.json()}};
  write_html_page(page, path);
}

}  // namespace kb
