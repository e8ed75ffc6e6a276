// How `kbench compare`'s verdicts are written: markdown for a terminal or a CI log, JUnit XML for a
// CI system's test view, JSON for scripts, and github-action-benchmark's `customSmallerIsBetter`
// array for an existing dashboard. Every format prints the gate without its constant key columns.
// docs/nightly.md shows each.
#pragma once

#include "analysis/regression_gate.hpp"

#include <string>

namespace kb {

// A summary line, the rule, then one row per case: the failures first, "same" last.
std::string verdicts_markdown(const Gate& gate);

// One <testsuite> per family, one <testcase> per case; a case that fails the gate carries a
// <failure> with its reason, the others their verdict in <system-out>.
std::string verdicts_junit(const Gate& gate);

// The request, whether the gate passed, the count of each verdict, and every case with both sides.
std::string verdicts_json(const Gate& gate);

// [{name, unit, value, range, extra}]: the candidate's median time (us) of every timed case, the
// range its repetitions span, and its verdict in `extra`.
std::string verdicts_benchmark_action(const Gate& gate);

// "+10.0%": a change in time (+ = slower), and "0.0079": a p-value, as every table of verdicts
// writes them.
std::string format_change(double effect);
std::string format_p(double p);

}  // namespace kb
