#include "worker_supervisor.hpp"

#include "device/device_info.hpp"
#include "interruption.hpp"
#include "plugin/kernel_manifest.hpp"
#include "measure/worker_settings.hpp"
#include "referee/apply_verdict.hpp"
#include "plugin/loader.hpp"
#include "util/short_of_resources.hpp"

#include <signal.h>

#include <chrono>
#include <cstdlib>

namespace kb {

using Received = WorkerProcess::Received;

bool SharedRun::stopped() const { return interrupted() || stopping; }

CaseKey key_of(const SharedRun& run, const PlannedCase& c) {
  return CaseKey(planned_cells(run.context, c), run.options.split);
}

WorkerSupervisor::~WorkerSupervisor() {
  if (worker_) worker_->finish();
  stop_worker();
  if (spare_) discard(*spare_);
}

namespace {

std::string one_line(std::string text) {
  for (char& ch : text) {
    if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
  }
  return text;
}

}  // namespace

std::optional<ResultCells> WorkerSupervisor::execute(const PlannedCase& c) {
  const std::optional<CaseOutcome> result = c.outcome ? c.outcome : run_case(c);
  if (!result) {
    // Stopped from outside without a signal of ours: stop the run as if it had been ours.
    interrupt();
    return std::nullopt;
  }
  // What CUPTI could not add, said once for the run, not in every row.
  if (!result->cupti_unavailable.empty()) {
    run_.progress.note_once("no CUPTI clock (" + one_line(result->cupti_unavailable) +
                            "): cupti_us and cupti_kernels stay empty");
  }
  if (!result->counters_unavailable.empty()) {
    run_.progress.note_once(
        result->counters.empty()
            ? "--metrics: no counters (" + one_line(result->counters_unavailable) +
                  "): the counters column stays empty"
            : "--metrics: " + one_line(result->counters_unavailable) + ": left out");
  }
  return record(c, *result);
}

const DeviceInfo* WorkerSupervisor::device_info(int index) {
  if (index < 0) return nullptr;
  auto it = devices_.find(index);
  if (it == devices_.end()) it = devices_.emplace(index, query_device(index)).first;
  return &it->second;
}

RefereeHandle* WorkerSupervisor::referee_for(int device, std::string& error) {
  std::unique_ptr<RefereeHandle>& referee = referees_[device];
  if (referee && !referee->alive()) referee.reset();
  if (!referee) {
    try {
      referee = std::make_unique<RefereeHandle>(device);
    } catch (const ShortOfResources&) {
      throw;
    } catch (const std::exception& e) {
      error = e.what();
      return nullptr;
    }
    if (device >= 0) bandwidth_[device] = referee->bandwidth();
  }
  return referee.get();
}

WorkerSupervisor::OpeningWorker WorkerSupervisor::open_worker(int device, RefereeHandle* referee,
                                                              std::string& error) {
  OpeningWorker opening;
  opening.device = device;
  PacketChannel worker_end;
  std::vector<int> inherited;
  if (referee != nullptr) {
    opening.connection = referee->connect(worker_end);
    if (!opening.connection) {
      error = "the referee stopped answering";
      return opening;
    }
    opening.referee_pid = referee->pid();
    inherited.push_back(worker_end.fd());
  }
  opening.process = std::make_unique<WorkerProcess>(
      std::vector<std::string>{executable_path(), "worker"}, inherited);
  opening.process->send("open", encode_device_opening(device));
  return opening;
}

void WorkerSupervisor::discard(OpeningWorker& worker) {
  worker.process.reset();  // killed
  if (worker.connection) {
    const auto& referee = referees_[worker.device];
    if (referee && referee->alive() && referee->pid() == worker.referee_pid) {
      referee->disconnect(*worker.connection);
    }
  }
  worker = OpeningWorker{};
}

WorkerSupervisor::OpeningWorker WorkerSupervisor::take_or_open_worker(int device,
                                                                      RefereeHandle* referee,
                                                                      bool refereed,
                                                                      std::string& error) {
  OpeningWorker worker;
  if (spare_) {
    const bool fits = spare_->device == device &&
                      (!refereed || (spare_->connection && spare_->referee_pid == referee->pid()));
    if (fits) worker = std::move(*spare_);
    if (!fits) discard(*spare_);
    spare_.reset();
  }
  if (!worker.process) worker = open_worker(device, refereed ? referee : nullptr, error);
  if (worker.connection && !refereed) {
    // A version 1 or 2 plugin is its own referee: the channel made for a spare is closed on the
    // referee's side, and the plugin finds only a dead end on descriptor 4.
    referee->disconnect(*worker.connection);
    worker.connection.reset();
  }
  return worker;
}

void WorkerSupervisor::open_spare(int device) {
  const auto referee = referees_.find(device);
  RefereeHandle* channel_to = referee != referees_.end() && referee->second &&
                                      referee->second->alive()
                                  ? referee->second.get()
                                  : nullptr;
  std::string error;
  try {
    OpeningWorker spare = open_worker(device, channel_to, error);
    if (spare.process) spare_ = std::move(spare);
  } catch (const std::exception&) {
    // Whatever stops a spare from starting stops the next worker too, and is said then.
  }
}

// Waits for the worker's greeting `expected` (its answer to `open` or `settings`); false with
// `error` saying why it is not ready. A greeting of kbench's own trouble throws.
bool WorkerSupervisor::greeted(const char* expected, std::string& error) {
  std::string kind;
  Record fields;
  const Received status = worker_->receive(kind, fields, 120'000);
  WorkerGreeting greeting;
  if (status == Received::record && kind == expected) {
    try {
      greeting = decode_worker_greeting(fields);
      if (greeting.ready()) return true;
    } catch (const ProtocolError& e) {
      greeting.error = std::string("protocol error: ") + e.what();
    }
    if (!greeting.short_of.empty()) {
      stop_worker();
      throw std::runtime_error(greeting.short_of);
    }
  }
  error = status == Received::timeout     ? "no answer within 120 s"
          : status == Received::out_of_step ? "protocol error: '" + kind + "' instead of its " +
                                                  expected
          : !greeting.error.empty()         ? greeting.error
                                            : "worker " + worker_->finish();
  worker_signal_ = worker_->signal();
  stop_worker();
  return false;
}

bool WorkerSupervisor::start_worker(const PlannedCase& c, std::string& error) {
  const auto start = std::chrono::steady_clock::now();
  WorkerSettings settings;
  // A kernel file runs in kbench's own strategy; the worker reads it again and refuses it if it
  // changed since the run planned it.
  if (c.plugin->kind == PartKind::kernel) {
    settings.kernel_file = c.plugin->file;
    if (c.plugin->kernel) settings.kernel_sha256 = c.plugin->kernel->sha256;
    // Which of the file's strategies (a manifest may hold several).
    settings.planned_as = c.plugin->name;
  } else {
    settings.plugin_file = c.plugin->file;
    settings.planned_as = planned_identity(*c.plugin);
  }
  if (c.plugin->referee) {
    settings.family = *c.plugin->referee;
    if (!c.plugin->refereed_by_family()) settings.family_file = c.plugin->referee->file;
  }
  settings.device = c.request.device;
  settings.timing = options_.timing;
  settings.refereed = c.plugin->refereed_by_family();
  // The device's referee: it judges the worker's cases and measured the device's roofs first.
  RefereeHandle* referee = nullptr;
  if (settings.refereed || c.request.device >= 0) {
    referee = referee_for(c.request.device, error);
    if (referee == nullptr) return false;
  }
  // A worker kbench cannot start (no descriptors or processes left to it) is kbench's trouble,
  // not the plugin's: it ends the run (the case keeps no row) instead of becoming its row.
  OpeningWorker opening = take_or_open_worker(c.request.device, referee, settings.refereed, error);
  if (!opening.process) return false;
  worker_ = std::move(opening.process);
  if (opening.connection) {
    connection_ = std::make_pair(c.request.device, *opening.connection);
    settings.referee_pid = opening.referee_pid;
  }
  set_lane_worker(lane_, worker_->pid());
  if (!greeted("opened", error)) return false;
  if (!worker_->send("settings", encode_worker_settings(settings))) {
    error = "worker " + worker_->finish();
    worker_signal_ = worker_->signal();
    stop_worker();
    return false;
  }
  if (!greeted("hello", error)) return false;
  current_ = group_of(c);
  run_.progress.worker_started(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  // A device lane's spare would make its CUDA context while this worker times: on the H200 that
  // cut the device lane's worker starts from 5.5 to 1.3 s of a default sweep, but the context's
  // creation beside a first case made cuBLAS's launches keep the host 22 us on a held stream
  // (8 us otherwise), and the case was timed plain. A host worker's spare touches no GPU.
  if (c.request.device < 0) open_spare(c.request.device);
  return true;
}

void WorkerSupervisor::stop_worker() {
  if (worker_) worker_->kill();
  worker_.reset();
  if (connection_) {
    const auto& referee = referees_[connection_->first];
    if (referee && referee->alive()) referee->disconnect(connection_->second);
    connection_.reset();
  }
  set_lane_worker(lane_, 0);
  current_ = {};
}

bool WorkerSupervisor::abandoned() const {
  return interrupted() || worker_signal_ == SIGTERM || worker_signal_ == SIGINT ||
         worker_signal_ == SIGHUP;
}

std::optional<CaseOutcome> WorkerSupervisor::run_case(const PlannedCase& c) {
  if (worker_ && current_ != group_of(c)) {
    worker_->finish();
    stop_worker();
  }
  worker_signal_ = 0;
  if (!worker_) {
    std::string error;
    if (!start_worker(c, error)) {
      if (abandoned()) return std::nullopt;
      return CaseOutcome::without_run(CaseStatus::error, "worker failed to start: " + error);
    }
  }
  if (connection_) {
    RefereeCaseSpec spec{c.request, c.plugin->device, c.plugin->flags, c.plugin->name,
                         c.plugin->referee ? c.plugin->referee->file : ""};
    std::string why;
    if (!referees_[connection_->first]->announce(connection_->second, spec, why)) {
      stop_worker();
      return CaseOutcome::without_run(CaseStatus::error, why);
    }
  }
  if (!worker_->send("case", encode_case(c.request))) {
    const std::string how = worker_->finish();
    worker_signal_ = worker_->signal();
    stop_worker();
    if (abandoned()) return std::nullopt;
    return CaseOutcome::without_run(CaseStatus::crashed,
                                    "worker " + how + " before the case started");
  }
  std::string kind;
  Record fields;
  const int timeout_ms = static_cast<int>(options_.case_timeout_seconds * 1000);
  switch (worker_->receive(kind, fields, timeout_ms)) {
    case WorkerProcess::Received::record: {
      CaseOutcome outcome;
      try {
        if (kind != "result") throw ProtocolError("unexpected '" + kind + "'");
        outcome = decode_outcome(fields);
        // An ok without a sample is no measurement, whatever the record says.
        if (outcome.status == CaseStatus::ok && (!outcome.samples || outcome.samples->count < 1)) {
          throw ProtocolError("an ok result without samples");
        }
      } catch (const ProtocolError& e) {
        stop_worker();
        return CaseOutcome::without_run(CaseStatus::error,
                                        std::string("worker protocol error: ") + e.what());
      }
      judge(outcome);
      if (outcome.context_lost) {
        outcome.status = CaseStatus::crashed;
        outcome.message = "CUDA context lost, worker replaced: " + outcome.message;
        outcome.context_lost = false;
        worker_->finish();
        stop_worker();
      }
      return outcome;
    }
    case WorkerProcess::Received::out_of_step: {
      // Something in the worker (the plugin, or a process it started) wrote on its result
      // channel: no later answer of this worker can be trusted to be its case's.
      const std::string expected = std::to_string(worker_->sequence());
      stop_worker();
      return CaseOutcome::without_run(
          CaseStatus::error, "worker protocol error: a line that answers no case ('" + kind +
                                 "', expected the result of case " + expected +
                                 "): something in the worker wrote on its result channel; "
                                 "worker replaced");
    }
    case WorkerProcess::Received::timeout:
      stop_worker();
      return CaseOutcome::without_run(
          CaseStatus::timeout, "no result after " +
                                   option_number(options_.case_timeout_seconds) +
                                   " s (--case-timeout); worker killed");
    case WorkerProcess::Received::ended: break;
  }
  const std::string how = worker_->finish();
  worker_signal_ = worker_->signal();
  stop_worker();
  if (abandoned()) return std::nullopt;
  return CaseOutcome::without_run(CaseStatus::crashed,
                                  "worker " + how + " while running this case");
}

void WorkerSupervisor::judge(CaseOutcome& outcome) {
  if (!connection_) return;
  const std::optional<RefereeVerdict> verdict =
      referees_[connection_->first]->verdict(connection_->second);
  if (!verdict) {
    stop_worker();
    outcome = CaseOutcome::without_run(CaseStatus::error,
                                       "the referee stopped answering: the case has no verdict");
    return;
  }
  apply_verdict(*verdict, !options_.timing.profile, outcome);
}

// Writes the case's samples, then its row; when either cannot be written, neither stays, the run
// stops, and the case is named as not recorded.
std::optional<ResultCells> WorkerSupervisor::record(const PlannedCase& c,
                                                    const CaseOutcome& outcome) {
  RunContext context = run_.context;
  if (c.hidden) context.run_id = hidden_run_id(context.run_id);
  const ResultCells row = build_row(context, c, device_info(c.request.device),
                                  bandwidth_[c.request.device], outcome);
  SharedCsvFile::Span samples;
  try {
    if (run_.samples != nullptr && !outcome.sample_list.empty()) {
      samples = run_.samples->append(row, outcome.sample_list);
    }
    try {
      run_.store.append(row);
    } catch (const WriteError&) {
      if (run_.samples != nullptr) run_.samples->undo(samples);
      throw;
    }
  } catch (const WriteError& e) {
    const std::lock_guard<std::mutex> lock(run_.failure_mutex);
    if (run_.write_error.empty()) run_.write_error = e.what();
    run_.not_recorded.push_back(describe_case(c));
    run_.stopping = true;
    return std::nullopt;
  }
  run_.progress.finished(row, outcome);
  return row;
}

}  // namespace kb
