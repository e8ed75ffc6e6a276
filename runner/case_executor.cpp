#include "case_executor.hpp"

#include "device/device_info.hpp"
#include "interruption.hpp"
#include "plugin/kernel_manifest.hpp"
#include "plugin/loader.hpp"

#include <signal.h>

#include <chrono>
#include <cstdlib>

namespace kb {

bool SharedRun::stopped() const { return interrupted() || stopping; }

CaseKey key_of(const SharedRun& run, const PlannedCase& c) {
  return CaseKey(record_of(build_row(run.context, c, nullptr, {}, CaseOutcome{})),
                 run.options.split);
}

CaseExecutor::~CaseExecutor() {
  if (worker_) worker_->finish();
  stop_worker();
}

namespace {

std::string one_line(std::string text) {
  for (char& ch : text) {
    if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
  }
  return text;
}

}  // namespace

std::optional<ResultRow> CaseExecutor::execute(const PlannedCase& c) {
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

const DeviceInfo* CaseExecutor::device_info(int index) {
  if (index < 0) return nullptr;
  auto it = devices_.find(index);
  if (it == devices_.end()) it = devices_.emplace(index, query_device(index)).first;
  return &it->second;
}

bool CaseExecutor::start_worker(const PlannedCase& c, std::string& error) {
  const auto& rule = options_.timing.rule;
  // A kernel file runs in kbench's own strategy; the worker reads it again and refuses it if it
  // changed since the run planned it.
  const bool kernel = c.plugin->kind == PartKind::kernel;
  std::vector<std::string> args = {
      executable_path(), "worker", kernel ? "--kernel-file" : "--plugin-file", c.plugin->file,
      "--device", std::to_string(c.request.device),
      "--copy-gbps", option_number(bandwidth_[c.request.device].copy_gbps),
      "--read-gbps", option_number(bandwidth_[c.request.device].read_gbps),
      "--l2-gbps", option_number(bandwidth_[c.request.device].l2_gbps),
      "--min-samples", std::to_string(rule.min_samples), "--min-time",
      option_number(rule.min_seconds), "--max-time", option_number(rule.max_seconds),
      "--max-noise", option_number(rule.max_noise),
      "--energy-window", option_number(options_.timing.energy_window_seconds)};
  if (kernel && c.plugin->kernel) {
    args.push_back("--kernel-sha256");
    args.push_back(c.plugin->kernel->sha256);
    // Which of the file's strategies (a manifest may hold several).
    args.push_back("--planned-as");
    args.push_back(c.plugin->name);
  } else {
    args.push_back("--planned-as");
    args.push_back(planned_identity(*c.plugin));
  }
  if (c.plugin->referee) {
    args.push_back("--family-file");
    args.push_back(c.plugin->referee->file);
  }
  if (!options_.timing.hide_launch_latency) args.push_back("--no-latency-hiding");
  if (options_.timing.cold) args.push_back("--cold");
  if (options_.timing.profile) args.push_back("--profile");
  if (options_.timing.keep_samples) args.push_back("--keep-samples");
  if (!options_.timing.cupti_clock) args.push_back("--no-cupti");
  if (!options_.timing.metrics.empty()) {
    args.push_back("--metrics");
    args.push_back(options_.timing.metrics);
  }
  const auto start = std::chrono::steady_clock::now();
  // A worker kbench cannot start (no descriptors or processes left to it) is kbench's trouble,
  // not the plugin's: it ends the run (the case keeps no row) instead of becoming its row.
  worker_ = std::make_unique<WorkerProcess>(args);
  set_lane_worker(lane_, worker_->pid());
  std::string kind;
  Record hello;
  const auto status = worker_->receive(kind, hello, 120'000);
  using Received = WorkerProcess::Received;
  if (status == Received::record && kind == "hello" && hello.count("short")) {
    stop_worker();
    throw std::runtime_error(hello["short"]);
  }
  if (status != Received::record || kind != "hello" || hello.count("error")) {
    error = status == Received::timeout       ? "no answer within 120 s"
            : status == Received::out_of_step ? "protocol error: '" + kind + "' instead of its hello"
            : hello.count("error")            ? hello["error"]
                                              : "worker " + worker_->finish();
    worker_signal_ = worker_->signal();
    stop_worker();
    return false;
  }
  if (c.request.device >= 0 && bandwidth_[c.request.device].copy_gbps <= 0) {
    MeasuredBandwidth& measured = bandwidth_[c.request.device];
    measured.copy_gbps = std::strtod(hello["copy_gbps"].c_str(), nullptr);
    measured.read_gbps = std::strtod(hello["read_gbps"].c_str(), nullptr);
    measured.l2_gbps = std::strtod(hello["l2_gbps"].c_str(), nullptr);
  }
  current_ = group_of(c);
  run_.progress.worker_started(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return true;
}

void CaseExecutor::stop_worker() {
  if (worker_) worker_->kill();
  worker_.reset();
  set_lane_worker(lane_, 0);
  current_ = {};
}

bool CaseExecutor::abandoned() const {
  return interrupted() || worker_signal_ == SIGTERM || worker_signal_ == SIGINT ||
         worker_signal_ == SIGHUP;
}

std::optional<CaseOutcome> CaseExecutor::run_case(const PlannedCase& c) {
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

// Writes the case's samples, then its row; when either cannot be written, neither stays, the run
// stops, and the case is named as not recorded.
std::optional<ResultRow> CaseExecutor::record(const PlannedCase& c, const CaseOutcome& outcome) {
  const ResultRow row = build_row(run_.context, c, device_info(c.request.device),
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
