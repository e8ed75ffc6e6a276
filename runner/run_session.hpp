// What `run` and `tune` share around their cases: the devices, the plan the probe helps make, and
// the session of a run id (its results file, its lock, the rows it already has, and the resume
// command said on every way out).
#pragma once

#include "judge/row_builder.hpp"
#include "options.hpp"
#include "plan/plan.hpp"
#include "plugin_selection.hpp"
#include "protocol/plugin_probe.hpp"
#include "store/result_record.hpp"
#include "store/results_store.hpp"
#include "store/run_lock.hpp"
#include "worker_supervisor.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kb {

struct CudaDevices {
  int count = 0;
  std::string why_none;  // when count is 0
};
CudaDevices cuda_devices();
// The capability of each device `sweep` names, where there are devices.
void note_capabilities(SweepRequest& sweep, const CudaDevices& devices);

struct PlannedRun {
  Plan plan;
  std::size_t plugins = 0;        // runnable; none: "nothing to VERB" was said, and no plan made
  std::size_t skipped_files = 0;  // see PluginSelection
};
using Planner = std::function<Plan(const PluginSelection&, PluginProbe&)>;
// The plugins selected and loaded in the probe, planned by `planner`, their kernel files compiled
// and checked, the plan's notes said.
PlannedRun plan_run(const RunOptions& options, const CudaDevices& devices,
                    const std::string& verb, const Planner& planner);

// True, and said, when the run was interrupted before any case ran.
bool interrupted_while_planning();

class RunSession {
 public:
  // `command` ("run", "tune") and `args` make the resume command; `shard` names the lock's shard;
  // `in_flight` says what a second interruption abandons.
  RunSession(const RunOptions& options, const std::string& command,
             const std::vector<std::string>& args, const std::string& shard,
             const std::string& in_flight);

  const RunContext& context() const { return context_; }
  ResultsStore& store() { return store_; }
  const std::string& resume() const { return resume_; }

  // The rows this run id (and its hidden shapes) already has in the results file; none for a run
  // id of its own.
  std::vector<ResultRecord> own_rows() const;
  // Without --resume, a run id that already has rows for `repeated` of the `planned` cases
  // (`what`) is refused, saying what --resume would do instead.
  void refuse_rerun(std::size_t repeated, std::size_t planned, const std::string& what,
                    const std::string& resume_does) const;

  // The exit code of a run whose rows could not all be written, said with the resume command.
  std::optional<int> write_failed(const SharedRun& shared) const;
  // The exit code of an interrupted run, said with what the CSV holds (`kept`).
  std::optional<int> interrupted_exit(const std::string& kept) const;

 private:
  const RunOptions& options_;
  RunContext context_;
  ResultsStore store_;  // repairs, or refuses another header, before anything runs
  // A chosen run id may be in use by another process; a default one (time, host, pid) is not.
  std::optional<RunLock> lock_;
  std::string resume_;
  std::string last_words_;  // kept alive: the signal handler holds its characters
};

}  // namespace kb
