#include "report/verdict_format.hpp"

#include "report/comparison_format.hpp"
#include "store/key_columns.hpp"
#include "util/markdown_table.hpp"
#include "util/number_text.hpp"

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace kb {
namespace {

constexpr std::array<Verdict, 9> kVerdicts = {
    Verdict::slower, Verdict::faster, Verdict::same,    Verdict::unsure, Verdict::broken,
    Verdict::fixed,  Verdict::untimed, Verdict::missing, Verdict::added};

// The order of the markdown table: what needs a look first.
int display_rank(const CaseVerdict& c) {
  constexpr std::array<Verdict, 9> order = {
      Verdict::broken, Verdict::missing, Verdict::slower, Verdict::unsure, Verdict::faster,
      Verdict::fixed,  Verdict::added,   Verdict::untimed, Verdict::same};
  const auto verdict = std::find(order.begin(), order.end(), c.verdict) - order.begin();
  return (c.fails ? 0 : 100) + static_cast<int>(verdict);
}


// "transpose/fast float32 1024x1024 32x8": the case without its family, which its plugin names.
std::string case_name(const Gate& gate, const CaseVerdict& c) {
  const std::size_t family = key_column(gate.key_columns, "family");
  std::string name;
  for (std::size_t i = 0; i < c.key.size(); ++i) {
    if (i != family && !c.key[i].empty()) name += (name.empty() ? "" : " ") + c.key[i];
  }
  return name;
}

std::map<Verdict, std::size_t> counts(const Gate& gate) {
  std::map<Verdict, std::size_t> count;
  for (const auto& c : gate.cases) ++count[c.verdict];
  return count;
}

std::string repetitions(const CaseVerdict& c) {
  const auto count = [](const std::optional<CaseSide>& side) {
    return side ? std::to_string(side->timed ? side->medians.size() : side->rows) : "-";
  };
  return count(c.baseline) + "/" + count(c.candidate);
}

std::string side_cell(const std::optional<CaseSide>& side) {
  if (!side) return "—";
  return side->timed ? format_measure(side->median) : side->status;
}

// What the case's verdict says in one line, for JUnit's output and the dashboard's `extra`.
std::string verdict_line(const CaseVerdict& c) {
  std::string line = verdict_name(c.verdict);
  if (c.effect) line += " " + format_change(*c.effect) + " vs the baseline";
  if (c.p_value) line += " (p = " + format_p(*c.p_value) + ")";
  line += ", repetitions " + repetitions(c);
  if (!c.reason.empty()) line += ": " + c.reason;
  return line;
}

std::string rule_text(const GateRequest& r) {
  return "Each side of a case: the median of its repetitions' median times; change = candidate / "
         "baseline - 1 (+ = slower). With two or more repetitions on both sides, a two-sided "
         "Mann-Whitney U test over them: p < " + formatted_text("%g", r.alpha) +
         " and a change of at least " + percent_text(r.min_effect) +
         " make a case faster or slower; a smaller change is same, a larger one that is not "
         "significant unsure. With one repetition on a side its rows' own noise, times " +
         formatted_text("%g", kSingleRepetitionMargin) +
         ", stands in for the test. The gate fails on a case slower by more than " +
         percent_text(r.fail_slower.value_or(r.min_effect)) +
         ", an ok case with another status now, or a case missing.";
}

// Rounded where written: a relative effect to 0.01%, a p-value to four significant digits.
double rounded(double value, double step) { return std::round(value / step) * step; }
double significant(double value) { return std::stod(formatted_text("%.4g", value)); }

nlohmann::ordered_json side_json(const CaseSide& side) {
  nlohmann::ordered_json j;
  j["status"] = side.status;
  if (!side.message.empty()) j["message"] = side.message;
  j["rows"] = side.rows;
  if (side.timed) {
    j["median_us"] = side.median;
    j["noise"] = std::isfinite(side.noise) ? nlohmann::ordered_json(significant(side.noise))
                                           : nlohmann::ordered_json();
    j["medians_us"] = side.medians;
  }
  return j;
}

}  // namespace

std::string format_change(double effect) {
  // Rounded first, so that a change too small to show reads +0.0%, never -0.0%.
  const double tenths = std::round(1000 * effect);
  return formatted_text("%+.1f%%", tenths == 0 ? 0.0 : tenths / 10);
}
std::string format_p(double p) { return formatted_text("%.2g", p); }

std::string verdicts_markdown(const Gate& full) {
  const Gate gate = without_constant_keys(full);
  const auto count = counts(gate);
  std::size_t failing = 0;
  std::map<Verdict, std::size_t> failing_by;
  for (const auto& c : gate.cases) {
    if (!c.fails) continue;
    ++failing;
    ++failing_by[c.verdict];
  }
  const auto list = [](const std::map<Verdict, std::size_t>& by) {
    std::string text;
    for (Verdict v : kVerdicts) {
      const auto found = by.find(v);
      if (found == by.end()) continue;
      text += (text.empty() ? "" : ", ") + std::to_string(found->second) + " " + verdict_name(v);
    }
    return text;
  };
  std::ostringstream out;
  out << "Baseline: " << markdown_cell(gate.baseline_label)
      << "; candidate: " << markdown_cell(gate.candidate_label) << ".\n"
      << rule_text(gate.request) << "\n\n";
  if (failing) {
    out << "FAIL: " << failing << " of " << gate.cases.size() << " cases fail the gate ("
        << list(failing_by) << ").";
  } else {
    out << "PASS: none of " << gate.cases.size() << " cases fails the gate.";
  }
  out << " Verdicts: " << list(count) << ".\n\n";

  std::vector<std::string> header = {"verdict"};
  header.insert(header.end(), gate.key_columns.begin(), gate.key_columns.end());
  header.insert(header.end(), {"baseline us", "candidate us", "change", "p", "repetitions", "why"});
  std::vector<MarkdownTable::Align> align(header.size(), MarkdownTable::Align::left);
  for (std::size_t i = gate.key_columns.size() + 1; i < header.size() - 1; ++i) {
    align[i] = MarkdownTable::Align::right;
  }
  MarkdownTable table(header, align);
  std::vector<const CaseVerdict*> shown;
  for (const auto& c : gate.cases) shown.push_back(&c);
  std::stable_sort(shown.begin(), shown.end(), [](const CaseVerdict* a, const CaseVerdict* b) {
    return display_rank(*a) < display_rank(*b);
  });
  for (const CaseVerdict* c : shown) {
    const std::string verdict = verdict_name(c->verdict);
    std::vector<std::string> cells = {c->fails ? "**" + verdict + "**" : verdict};
    cells.insert(cells.end(), c->key.begin(), c->key.end());
    cells.push_back(side_cell(c->baseline));
    cells.push_back(side_cell(c->candidate));
    cells.push_back(c->effect ? format_change(*c->effect) : "");
    cells.push_back(c->p_value ? format_p(*c->p_value) : "");
    cells.push_back(repetitions(*c));
    cells.push_back(c->reason);
    table.add_row(std::move(cells));
  }
  out << table.str();
  return out.str();
}

std::string verdicts_junit(const Gate& full) {
  namespace pt = boost::property_tree;
  const Gate gate = without_constant_keys(full);
  const std::size_t family = key_column(gate.key_columns, "family");
  std::map<std::string, std::vector<const CaseVerdict*>> by_family;
  std::size_t failures = 0;
  for (const auto& c : gate.cases) {
    by_family[c.key[family]].push_back(&c);
    failures += c.fails;
  }
  pt::ptree suites;
  suites.put("<xmlattr>.name", "kbench compare: " + gate.candidate_label + " against " +
                                   gate.baseline_label);
  suites.put("<xmlattr>.tests", gate.cases.size());
  suites.put("<xmlattr>.failures", failures);
  for (const auto& [name, cases] : by_family) {
    pt::ptree suite;
    suite.put("<xmlattr>.name", name);
    suite.put("<xmlattr>.tests", cases.size());
    suite.put("<xmlattr>.failures", std::count_if(cases.begin(), cases.end(),
                                                  [](const CaseVerdict* c) { return c->fails; }));
    for (const CaseVerdict* c : cases) {
      pt::ptree test;
      test.put("<xmlattr>.classname", name);
      test.put("<xmlattr>.name", case_name(gate, *c));
      if (c->fails) {
        pt::ptree failure;
        failure.put("<xmlattr>.type", verdict_name(c->verdict));
        failure.put("<xmlattr>.message", c->reason);
        failure.put_value(verdict_line(*c));
        test.add_child("failure", failure);
      } else {
        test.put("system-out", verdict_line(*c));
      }
      suite.add_child("testcase", test);
    }
    suites.add_child("testsuite", suite);
  }
  pt::ptree document;
  document.add_child("testsuites", suites);
  std::ostringstream out;
  pt::write_xml(out, document, pt::xml_writer_make_settings<std::string>(' ', 2));
  return out.str();
}

std::string verdicts_json(const Gate& full) {
  using nlohmann::ordered_json;
  const Gate gate = without_constant_keys(full);
  ordered_json j;
  j["baseline"] = gate.baseline_label;
  j["candidate"] = gate.candidate_label;
  j["test"] = {{"name", "mann-whitney-u"},
               {"alpha", gate.request.alpha},
               {"min_effect", gate.request.min_effect},
               {"fail_slower", gate.request.fail_slower.value_or(gate.request.min_effect)},
               {"single_repetition_margin", kSingleRepetitionMargin}};
  j["passed"] = gate.passed();
  const auto count = counts(gate);
  ordered_json verdicts = ordered_json::object();
  for (Verdict v : kVerdicts) verdicts[verdict_name(v)] = count.count(v) ? count.at(v) : 0;
  j["verdicts"] = verdicts;
  ordered_json cases = ordered_json::array();
  for (const auto& c : gate.cases) {
    ordered_json one;
    for (std::size_t i = 0; i < gate.key_columns.size(); ++i) one[gate.key_columns[i]] = c.key[i];
    one["verdict"] = verdict_name(c.verdict);
    one["fails"] = c.fails;
    if (!c.reason.empty()) one["reason"] = c.reason;
    if (c.effect) one["effect"] = rounded(*c.effect, 1e-4);
    if (c.p_value) one["p_value"] = significant(*c.p_value);
    if (c.baseline) one["baseline"] = side_json(*c.baseline);
    if (c.candidate) one["candidate"] = side_json(*c.candidate);
    cases.push_back(std::move(one));
  }
  j["cases"] = std::move(cases);
  return j.dump(2) + "\n";
}

std::string verdicts_benchmark_action(const Gate& full) {
  using nlohmann::ordered_json;
  const Gate gate = without_constant_keys(full);
  ordered_json entries = ordered_json::array();
  for (const auto& c : gate.cases) {
    if (!c.candidate || !c.candidate->timed) continue;
    ordered_json entry;
    entry["name"] = case_name(gate, c);
    entry["unit"] = "us";
    entry["value"] = c.candidate->median;
    // Half the spread of the candidate's repetitions, or with one its row's confidence interval.
    const double range = c.candidate->noise * c.candidate->median;
    if (std::isfinite(range)) entry["range"] = "±" + format_measure(range);
    entry["extra"] = verdict_line(c);
    entries.push_back(std::move(entry));
  }
  return entries.dump(2) + "\n";
}

}  // namespace kb
