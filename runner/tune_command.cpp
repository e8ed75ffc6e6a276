// `kbench tune`: for each problem (plugin, data type, operation, shape) a search of the plugin's
// configurations — the blocks it accepts and its parameters' values — that measures only the
// configurations its strategy picks, each as a case run like `run` runs it (the same workers,
// timing and verification) and written as a row of the CSV. A configuration that fails is a bad
// configuration, not a failure of the tune. Prints each problem's best configuration and merges
// it into the best-configuration file `run --best` reads. `--simulate CSV` replays the strategies
// against rows already measured instead (docs/tuning.md).
#include "commands.hpp"
#include "exit_codes.hpp"
#include "interruption.hpp"
#include "options.hpp"
#include "plugin_selection.hpp"
#include "run_session.hpp"
#include "store/record_reader.hpp"
#include "store/result_record.hpp"
#include "store/result_selection.hpp"
#include "tune/best_configs.hpp"
#include "tune/search_replay.hpp"
#include "tune/search_strategy.hpp"
#include "util/input_error.hpp"
#include "util/markdown_table.hpp"
#include "util/number_text.hpp"
#include "util/progress_line.hpp"
#include "worker_supervisor.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <thread>

namespace kb {
namespace {

// Thrown by a search's objective when the tune must stop: interrupted, or a row not written.
struct TuneStopped {};

Cost cost_of(const ResultRecord& row) {
  if (!row.ok()) return std::nullopt;
  return row.median_us;
}

// One problem: a plugin's configurations for one data type, operation and shape on one device.
struct Problem {
  BestKey key;  // its GPU cells still empty: known once a case has run
  int device = -1;
  std::vector<PlannedCase> cases;  // by point of `space`
  SearchSpace space{{}};
  std::string refused;  // why no configuration can run, when none can
};

// The plan's cases grouped into problems, in plan order.
std::vector<Problem> problems_of(const Plan& plan, const RunContext& context) {
  std::vector<Problem> problems;
  std::vector<std::map<Configuration, PlannedCase>> configurations;
  for (const auto& c : plan.cases) {
    const ResultRecord row = record_of(planned_cells(context, c));
    const BestKey key = best_key(row);
    auto it = std::find_if(problems.begin(), problems.end(), [&](const Problem& p) {
      return p.key == key && p.device == c.request.device;
    });
    if (it == problems.end()) {
      problems.push_back({key, c.request.device, {}, SearchSpace({}), ""});
      configurations.emplace_back();
      it = problems.end() - 1;
    }
    auto& mine = configurations[static_cast<std::size_t>(it - problems.begin())];
    if (!c.outcome) {
      mine.emplace(Configuration{row.block, row.params}, c);
    } else if (it->refused.empty()) {
      it->refused = std::string(status_name(c.outcome->status)) +
                    (c.outcome->message.empty() ? "" : ": " + c.outcome->message);
    }
  }
  for (std::size_t i = 0; i < problems.size(); ++i) {
    Problem& p = problems[i];
    std::vector<Configuration> listed;
    for (const auto& [configuration, c] : configurations[i]) listed.push_back(configuration);
    p.space = SearchSpace(listed);
    for (std::size_t point = 0; point < p.space.size(); ++point) {
      p.cases.push_back(configurations[i].at(p.space.configuration(point)));
    }
  }
  return problems;
}

// What the search of one problem found.
struct Tuned {
  const Problem* problem = nullptr;
  std::vector<std::optional<ResultRecord>> rows;  // per point, once evaluated
  std::size_t evaluations = 0;
  std::optional<std::size_t> best;  // the point
  std::size_t found_at = 0;         // the evaluation (from 1) that found it
  bool complete = false;            // false: the tune stopped during this search
};

// Searches one problem: each configuration the strategy picks is read back from `measured` (the
// rows of a resumed run id) or run by `supervisor` and written. A tune stopped meanwhile
// (interrupted, or a row not written) leaves the search incomplete.
Tuned search_problem(const Problem& p, const SearchStrategy& strategy, const TuneOptions& options,
                     SharedRun& shared, WorkerSupervisor& supervisor,
                     const std::map<CaseKey, ResultRecord>& measured) {
  Tuned t{&p, std::vector<std::optional<ResultRecord>>(p.space.size()), 0, {}, 0, false};
  const auto objective = [&](std::size_t point) -> Cost {
    const PlannedCase& c = p.cases[point];
    if (const auto it = measured.find(key_of(shared, c)); it != measured.end()) {
      shared.progress.skipped_resumed();
      t.rows[point] = it->second;
    } else {
      if (shared.stopped()) throw TuneStopped{};
      shared.progress.started(describe_case(c));
      const std::optional<ResultCells> row = supervisor.execute(c);
      if (!row) throw TuneStopped{};
      t.rows[point] = record_of(*row);
    }
    return cost_of(*t.rows[point]);
  };
  Search search(p.space, objective, {options.budget, options.seconds});
  SearchRng rng = search_rng(options.seed, p.key.problem());
  try {
    strategy.run(search, rng);
    t.complete = true;
  } catch (const TuneStopped&) {
    // What the search measured before it stopped is in the CSV; --resume reads it back.
  }
  t.evaluations = search.trace().size();
  if (const auto best = search.best()) {
    t.best = search.trace()[*best].point;
    t.found_at = *best + 1;
  }
  return t;
}

// The least ok median in the CSV of the problem of `best` — same GPU model, plugin version,
// inputs and cache, any configuration and any run — for the distance of a tune's best from it.
std::optional<double> best_seen(const std::vector<ResultRecord>& rows, const ResultRecord& best) {
  std::optional<double> least;
  for (const auto& row : rows) {
    if (!(best_key(row) == best_key(best)) || row.seed != best.seed || row.cache != best.cache) {
      continue;
    }
    const Cost cost = cost_of(row);
    if (cost && (!least || *cost < *least)) least = cost;
  }
  return least;
}

void print_tuned(const std::vector<Tuned>& tuned, const std::vector<ResultRecord>& rows) {
  MarkdownTable table({"problem", "best configuration", "median us", "found at", "evaluations",
                       "configurations", "best seen us", "distance"},
                      2);
  for (const auto& t : tuned) {
    const Problem& p = *t.problem;
    const std::string evaluations =
        std::to_string(t.evaluations) + (t.complete ? "" : " (stopped)");
    if (!t.best) {
      table.add_row({p.key.problem(), "none ok", "", "", evaluations,
                     std::to_string(p.space.size()), "", ""});
      continue;
    }
    const ResultRecord& row = *t.rows[*t.best];
    const double median = *cost_of(row);
    const auto seen = best_seen(rows, row).value_or(median);
    table.add_row({p.key.problem(), p.space.describe(*t.best), significant_text(median),
                   std::to_string(t.found_at), evaluations, std::to_string(p.space.size()),
                   fixed_text(seen, 3), "+" + fixed_text(100 * (median / seen - 1), 1) + "%"});
  }
  std::cout << "\n" << table.str();
}

std::vector<BestConfig> best_configs(const std::vector<Tuned>& tuned, const TuneOptions& options) {
  std::vector<BestConfig> entries;
  for (const auto& t : tuned) {
    if (!t.complete || !t.best) continue;
    const ResultRecord& row = *t.rows[*t.best];
    entries.push_back({best_key(row), t.problem->space.configuration(*t.best), *cost_of(row),
                       row.run_id, options.strategies.front(), options.seed, t.found_at,
                       t.problem->space.size(), row.timestamp_utc});
  }
  return entries;
}

int simulate(const TuneOptions& options) {
  std::vector<const SearchStrategy*> strategies;
  for (const auto& s : kSearchStrategies) {
    if (options.strategies.empty() ||
        std::count(options.strategies.begin(), options.strategies.end(), s.name)) {
      strategies.push_back(&s);
    }
  }
  // Each problem replayed as it is grouped, and kept as its figures alone (its names as handles):
  // a year of nightlies holds millions of problems, and the rows are let go of before the table.
  struct Simulated {
    Text problem, where;
    std::size_t configurations = 0;
  };
  std::vector<Simulated> simulated;
  std::vector<ReplayOutcome> outcomes;  // strategies.size() per problem
  std::vector<double> share(strategies.size(), 0);  // summed over the problems: evaluations / size
  std::vector<std::size_t> third(strategies.size(), 0);
  {
    auto rows = read_selected_rows({options.simulate}, {{}, options.run.sweep.plugin_globs, {}});
    ProgressLine progress;
    const auto searching = [&](std::size_t problem, std::size_t problems) {
      progress.update([&] {
        return "kbench: problem " + std::to_string(problem + 1) + " of " + std::to_string(problems);
      });
    };
    for_each_measured_space(rows, [&](const MeasuredSpace& measured) {
      simulated.push_back({measured.problem, measured.where, measured.space.size()});
      for (std::size_t i = 0; i < strategies.size(); ++i) {
        const ReplayOutcome outcome = replay(measured, *strategies[i], {options.budget, 0},
                                             options.seed, options.seeds, options.within);
        outcomes.push_back(outcome);
        if (outcome.reached == 0) continue;
        const double size = static_cast<double>(measured.space.size());
        share[i] += outcome.mean_evaluations / size;
        if (outcome.reached == outcome.searches && outcome.mean_evaluations <= size / 3) ++third[i];
      }
    }, searching);
  }
  if (simulated.empty()) {
    throw InputError("no problem in '" + options.simulate +
                     "' has two or more configurations measured, one of them ok: nothing to "
                     "simulate");
  }
  std::vector<std::string> header = {"problem", "where", "configurations"};
  for (const auto* s : strategies) header.push_back(s->name);
  MarkdownTable table(header, 2);
  for (std::size_t p = 0; p < simulated.size(); ++p) {
    std::vector<std::string> cells = {simulated[p].problem, simulated[p].where,
                                      std::to_string(simulated[p].configurations)};
    for (std::size_t i = 0; i < strategies.size(); ++i) {
      const ReplayOutcome& outcome = outcomes[p * strategies.size() + i];
      if (outcome.reached == 0) {
        cells.push_back("never");
        continue;
      }
      std::string cell = fixed_text(outcome.mean_evaluations, 1);
      if (outcome.reached < outcome.searches) {
        cell += " (" + std::to_string(outcome.searches - outcome.reached) + " missed)";
      }
      cells.push_back(cell);
    }
    table.add_row(cells);
  }
  std::vector<std::string> mean_share = {"mean share of the space", "", ""};
  std::vector<std::string> within_third = {"problems found in a third of the space", "", ""};
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    const double problems = static_cast<double>(simulated.size());
    mean_share.push_back(fixed_text(100 * share[i] / problems, 0) + "%");
    within_third.push_back(std::to_string(third[i]) + " of " + std::to_string(simulated.size()));
  }
  table.add_row(mean_share);
  table.add_row(within_third);
  std::cout << "Evaluations until a configuration within " << fixed_text(100 * options.within, 1)
            << "% of the problem's best measured one, mean over " << options.seeds
            << " searches (seeds " << options.seed << " to " << options.seed + options.seeds - 1
            << (options.budget ? ", at most " + std::to_string(options.budget) + " evaluations each"
                               : "")
            << "); 'missed': searches that ended without one.\n\n"
            << table.str();
  return kExitOk;
}

}  // namespace

int tune_command(const std::vector<std::string>& args) {
  TuneOptions options;
  if (!parse_tune_options(args, options)) return kExitOk;
  if (!options.simulate.empty()) return simulate(options);
  handle_interruptions();
  RunOptions& run = options.run;
  const SearchStrategy& strategy = find_strategy(options.strategies.front());
  // The file the search's results are merged into is checked before the search, not after it.
  BestConfigs::read(options.best_file);

  const int device = run.sweep.devices.front();
  const CudaDevices cuda = cuda_devices();
  if (cuda.count > 0 && device >= cuda.count) {
    throw InputError("device " + std::to_string(device) + " is not present (" +
                     std::to_string(cuda.count) + " CUDA devices)");
  }
  note_capabilities(run.sweep, cuda);
  const PlannedRun planned =
      plan_run(run, cuda, "tune", [&](const PluginSelection& selection, PluginProbe& probe) {
        return plan_sweep(selection.runnable, run.sweep, selection.families, probe);
      });
  if (planned.plugins == 0) return kExitOk;
  if (interrupted_while_planning()) return kExitInterrupted;

  RunSession session(run, "tune", args, "", "the case in flight was");
  const std::vector<Problem> problems = problems_of(planned.plan, session.context());
  std::size_t evaluations = 0;
  for (const auto& p : problems) {
    evaluations += options.budget ? std::min(options.budget, p.space.size()) : p.space.size();
  }
  RunProgress progress(evaluations);
  SharedRun shared{run, session.store(), nullptr, progress, session.context()};
  // A resumed tune reads the configurations its run id measured back instead of running them:
  // with the same seed its strategies take the same path, at no cost, to where it stopped.
  std::map<CaseKey, ResultRecord> measured;
  for (auto& row : session.own_rows()) measured.emplace(CaseKey(row, false), std::move(row));
  std::size_t repeated = 0, configurations = 0;
  for (const auto& p : problems) {
    configurations += p.cases.size();
    for (const auto& c : p.cases) repeated += measured.count(key_of(shared, c));
  }
  session.refuse_rerun(repeated, configurations, "configurations",
                       "read them back instead of running them");
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  setenv("KBENCH_HOST_THREADS", std::to_string(cores).c_str(), /*overwrite=*/0);
  std::cerr << "kbench: tune " << session.context().run_id << ": " << problems.size()
            << " problems, " << strategy.name << " search, seed " << options.seed << " -> "
            << run.output << "\n";

  std::vector<Tuned> tuned;
  {
    WorkerSupervisor supervisor(shared, 0);
    for (const auto& p : problems) {
      if (p.space.size() == 0) {
        std::cerr << "kbench: " << p.key.problem() << ": no configuration to tune (" << p.refused
                  << ")\n";
        continue;
      }
      if (shared.stopped()) break;
      tuned.push_back(search_problem(p, strategy, options, shared, supervisor, measured));
      if (!tuned.back().complete) break;
    }
  }
  progress.close(RunProgress::CaseTable::hidden);
  print_tuned(tuned, read_records(run.output));
  if (const auto failed = session.write_failed(shared)) return *failed;
  const auto entries = best_configs(tuned, options);
  if (!entries.empty()) {
    merge_best_configs(options.best_file, entries);
    std::cerr << "kbench: " << entries.size() << " best configuration"
              << (entries.size() == 1 ? "" : "s") << " merged into " << options.best_file << "\n";
  }
  if (const auto stopped = session.interrupted_exit("configuration measured")) return *stopped;
  const bool all_found =
      std::all_of(tuned.begin(), tuned.end(), [](const Tuned& t) { return t.best.has_value(); });
  return all_found ? kExitOk : kExitCasesFailed;
}

}  // namespace kb
