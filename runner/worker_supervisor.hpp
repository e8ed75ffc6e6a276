// The parent's side of running cases: one plugin's cases through one worker process at a time,
// and each result written as a row. `run` drives it from a queue of planned cases, one supervisor
// per lane (device); `tune` one case at a time, as its strategy asks. Whatever happens to a
// worker, the case it was running becomes a row — a failed case is a result, never a fault of
// the parent.
#pragma once

#include "case/case_outcome.hpp"
#include "device/bandwidth.hpp"
#include "options.hpp"
#include "plan/plan.hpp"
#include "protocol/codec.hpp"
#include "protocol/worker_process.hpp"
#include "referee_handle.hpp"
#include "run_progress.hpp"
#include "store/case_key.hpp"
#include "store/results_store.hpp"
#include "judge/row_builder.hpp"
#include "store/samples_writer.hpp"

#include <atomic>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kb {

// Everything the supervisors of one run share; each member is safe to use from several lanes.
struct SharedRun {
  const RunOptions& options;
  ResultsStore& store;
  SamplesWriter* samples;  // null without --samples-out
  RunProgress& progress;
  RunContext context;
  // Set when a lane cannot go on: a file could not be written, or kbench failed. The other lanes
  // stop after their case in flight.
  std::atomic<bool> stopping{false};
  std::mutex failure_mutex;
  std::string write_error;                // the first WriteError's message
  std::vector<std::string> not_recorded;  // the cases whose rows could not be written
  std::exception_ptr internal_error;

  bool stopped() const;
};

// The case's identity in the CSV (see case_key.hpp), from the row it will be written as.
CaseKey key_of(const SharedRun& run, const PlannedCase& c);

class WorkerSupervisor {
 public:
  // `lane` names the supervisor to the signal handler, which kills its worker when the case in
  // flight is abandoned.
  WorkerSupervisor(SharedRun& run, int lane) : run_(run), options_(run.options), lane_(lane) {}
  ~WorkerSupervisor();
  WorkerSupervisor(const WorkerSupervisor&) = delete;
  WorkerSupervisor& operator=(const WorkerSupervisor&) = delete;

  // Runs the case (or takes its planned outcome) and writes its row, which it returns. Nothing
  // when the case was abandoned (the run was interrupted while it ran, or its worker was stopped
  // from outside: no row, so --resume runs it again; interrupted() is then true), or when its row
  // could not be written (the run stops: SharedRun says why).
  std::optional<ResultCells> execute(const PlannedCase& c);

 private:
  // What a worker serves: one plugin on one device, for one repetition (a repetition that reused
  // the worker of the one before would share its warm state, and not be a repetition).
  struct Group {
    const PluginInfo* plugin = nullptr;
    int device = -1;
    int repetition = 0;
    bool operator!=(const Group& other) const {
      return plugin != other.plugin || device != other.device || repetition != other.repetition;
    }
  };
  // The case's result; nothing when the case was abandoned.
  std::optional<CaseOutcome> run_case(const PlannedCase& c);
  std::optional<ResultCells> record(const PlannedCase& c, const CaseOutcome& outcome);
  // A worker started and told to open its device, its answer not read yet; its channel to the
  // device's referee, if it has one, made as it started.
  struct OpeningWorker {
    std::unique_ptr<WorkerProcess> process;
    int device = -1;
    std::optional<int> connection;
    pid_t referee_pid = 0;  // whose connection it is: a referee started again is another
  };
  // Throws what WorkerProcess throws (kbench cannot start a process); `error` says why the
  // referee gave no channel (then the worker has no process).
  OpeningWorker open_worker(int device, RefereeHandle* referee, std::string& error);
  // The spare if it can serve a worker on `device` (with a channel to `referee` where `refereed`),
  // else a worker opened now.
  OpeningWorker take_or_open_worker(int device, RefereeHandle* referee, bool refereed,
                                    std::string& error);
  // Starts the spare for the lane's next worker, on the device of the one just started, while
  // that one times: its process start costs the run nothing. Nothing when it cannot start: the
  // next worker then starts as the first did.
  void open_spare(int device);
  void discard(OpeningWorker& worker);
  bool greeted(const char* expected, std::string& error);
  bool start_worker(const PlannedCase& c, std::string& error);
  void stop_worker();
  // The referee of the device's cases, started on first need and again after it died. Nothing
  // when it cannot start (`error` says why).
  RefereeHandle* referee_for(int device, std::string& error);
  // The worker's answer held against what its referee saw: the referee's verdict is the row's.
  void judge(CaseOutcome& outcome);
  // After the worker ended on its own: was it stopped by the run's interruption, or from outside?
  bool abandoned() const;
  const DeviceInfo* device_info(int index);
  static Group group_of(const PlannedCase& c) {
    return {c.plugin.get(), c.request.device, c.repetition};
  }

  SharedRun& run_;
  const RunOptions& options_;
  int lane_;
  std::unique_ptr<WorkerProcess> worker_;
  std::optional<OpeningWorker> spare_;
  int worker_signal_ = 0;
  Group current_;
  std::map<int, DeviceInfo> devices_;
  // Per device (-1: the host cases), each measuring its device's roofs as it starts.
  std::map<int, std::unique_ptr<RefereeHandle>> referees_;
  // The worker's channel to its referee (the device, the connection), if it is refereed.
  std::optional<std::pair<int, int>> connection_;
  std::map<int, MeasuredBandwidth> bandwidth_;  // per device, measured by its referee
};

}  // namespace kb
