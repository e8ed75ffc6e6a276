// `kbench run`: the parent. Plans the sweep, hands each plugin's cases to a worker process, and
// alone writes the results: whatever happens to a worker, the case it was running becomes a row.
// It never runs plugin code itself (loading and acceptance run in the probe process), and it
// never ends without a line saying why: interrupted, the resume command; a results file that
// cannot be written, the case not recorded and the resume command.
#include "commands.hpp"

#include "case_key.hpp"
#include "case_queue.hpp"
#include "device_info.hpp"
#include "exit_codes.hpp"
#include "input_error.hpp"
#include "loader.hpp"
#include "options.hpp"
#include "plugin_probe.hpp"
#include "results_store.hpp"
#include "row_builder.hpp"
#include "run_lock.hpp"
#include "samples_writer.hpp"
#include "sweep_report.hpp"
#include "worker_process.hpp"

#include <signal.h>
#include <unistd.h>

#include <boost/filesystem/operations.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace kb {
namespace {

constexpr int kMaxLanes = 64;  // one lane per device in use, plus the host
volatile sig_atomic_t g_interrupts = 0;
volatile sig_atomic_t g_worker_pids[kMaxLanes] = {};
// What a second signal prints before the parent ends at once: set before the lanes start.
const char* volatile g_last_words = "kbench: interrupted twice; stopped at once\n";

void abandon_cases_in_flight() {
  for (int lane = 0; lane < kMaxLanes; ++lane) {
    if (g_worker_pids[lane] > 0) kill(g_worker_pids[lane], SIGKILL);
  }
}

// SIGINT (a person at the terminal): finish the cases in flight, then stop. SIGTERM and SIGHUP
// (timeout(1), a scheduler's time limit, a closed session: the process has seconds, not a case's
// minutes): abandon the cases in flight at once and stop. An abandoned case gets no row, so
// --resume runs it again; every row already written is whole. A second signal: stop now.
void on_interrupt(int sig) {
  if (++g_interrupts >= 2) {
    abandon_cases_in_flight();
    const char* words = g_last_words;
    [[maybe_unused]] const ssize_t written = ::write(2, words, std::strlen(words));
    _exit(kExitInterrupted);
  }
  if (sig != SIGINT) abandon_cases_in_flight();
}

std::vector<int> parse_devices(const std::string& text, int available) {
  std::vector<int> devices;
  if (text == "all") {
    for (int i = 0; i < available; ++i) devices.push_back(i);
    return devices;
  }
  for (const auto& item : split_user_list(text, "device")) {
    const auto index = parse_unsigned(item);
    if (!index || *index >= kMaxLanes) throw InputError("malformed device '" + item + "'");
    if (available > 0 && *index >= static_cast<std::uint64_t>(available)) {
      throw InputError("device " + item + " is not present (" + std::to_string(available) +
                       " CUDA devices)");
    }
    if (std::count(devices.begin(), devices.end(), static_cast<int>(*index))) {
      throw InputError("device " + item + " given twice in '" + text + "'");
    }
    devices.push_back(static_cast<int>(*index));
  }
  return devices;
}

std::string default_run_id(const std::string& host) {
  std::string stamp = utc_timestamp();
  for (char& ch : stamp) {
    if (ch == ':') ch = '-';
  }
  return stamp + "-" + host + "-" + std::to_string(getpid());
}

std::string shell_quote(const std::string& s) {
  if (s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=,:^+") ==
      std::string::npos) {
    return s;
  }
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

// The command that runs what is missing of this run.
std::string resume_command(const std::vector<std::string>& args, const RunOptions& options,
                           const std::string& run_id) {
  std::string command = "kbench run";
  for (const auto& a : args) {
    if (a != "--resume") command += " " + shell_quote(a);
  }
  if (options.run_id.empty()) command += " --run-id " + shell_quote(run_id);
  return command + " --resume";
}

// Everything the lanes of one run share; each member is safe to use from several lanes.
struct SharedRun {
  const RunOptions& options;
  ResultsStore& store;
  SamplesWriter* samples;  // null without --samples-out
  SweepReport& report;
  RunContext context;
  const std::set<CaseKey>& done;
  // Set when a lane cannot go on: a file could not be written, or kbench failed. The other lanes
  // stop after their case in flight.
  std::atomic<bool> stopping{false};
  std::mutex failure_mutex;
  std::string write_error;               // the first WriteError's message
  std::vector<std::string> not_recorded;  // the cases whose rows could not be written
  std::exception_ptr internal_error;

  bool stopped() const { return g_interrupts > 0 || stopping; }
};

CaseKey key_of(const SharedRun& run, const PlannedCase& c) {
  return CaseKey(build_row(run.context, c, nullptr, 0, {}), run.options.split);
}

// Runs the cases of one lane (one device, or the host) in order, one worker at a time.
class SweepExecutor {
 public:
  SweepExecutor(SharedRun& run, int lane) : run_(run), options_(run.options), lane_(lane) {}

  // Runs cases from the queue until it is empty (on `device`, when given) or the run stops.
  void execute(CaseQueue& queue, std::optional<int> device);

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
  // The case's result; nothing when the case was abandoned (the run was interrupted while it ran,
  // or its worker was stopped from outside): no row, so --resume runs it again.
  std::optional<Record> run_case(const PlannedCase& c);
  void record(const PlannedCase& c, const Record& result);
  bool start_worker(const PlannedCase& c, std::string& error);
  void stop_worker();
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
  int worker_signal_ = 0;
  Group current_;
  std::map<int, DeviceInfo> devices_;
  std::map<int, double> copy_gbps_;
};

const DeviceInfo* SweepExecutor::device_info(int index) {
  if (index < 0) return nullptr;
  auto it = devices_.find(index);
  if (it == devices_.end()) it = devices_.emplace(index, query_device(index)).first;
  return &it->second;
}

bool SweepExecutor::start_worker(const PlannedCase& c, std::string& error) {
  const auto& rule = options_.timing.rule;
  std::vector<std::string> args = {
      executable_path(), "worker", "--plugin-file", c.plugin->file,
      "--device", std::to_string(c.request.device),
      "--copy-gbps", option_number(copy_gbps_[c.request.device]),
      "--min-samples", std::to_string(rule.min_samples), "--min-time",
      option_number(rule.min_seconds), "--max-time", option_number(rule.max_seconds),
      "--max-noise", option_number(rule.max_noise),
      "--energy-window", option_number(options_.timing.energy_window_seconds)};
  if (!options_.timing.hide_launch_latency) args.push_back("--no-latency-hiding");
  if (options_.timing.cold) args.push_back("--cold");
  if (options_.timing.profile) args.push_back("--profile");
  if (options_.timing.keep_samples) args.push_back("--keep-samples");
  const auto start = std::chrono::steady_clock::now();
  try {
    worker_ = std::make_unique<WorkerProcess>(args);
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  g_worker_pids[lane_] = worker_->pid();
  std::string kind;
  Record hello;
  const auto status = worker_->receive(kind, hello, 120'000);
  if (status != LineReader::Status::line || kind != "hello" || hello.count("error")) {
    error = status == LineReader::Status::timeout ? "no answer within 120 s"
            : hello.count("error")               ? hello["error"]
                                                 : "worker " + worker_->finish();
    worker_signal_ = worker_->signal();
    stop_worker();
    return false;
  }
  if (c.request.device >= 0 && copy_gbps_[c.request.device] <= 0) {
    copy_gbps_[c.request.device] = std::strtod(hello["copy_gbps"].c_str(), nullptr);
  }
  current_ = group_of(c);
  run_.report.worker_started(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return true;
}

void SweepExecutor::stop_worker() {
  if (worker_) worker_->kill();
  worker_.reset();
  g_worker_pids[lane_] = 0;
  current_ = {};
}

bool SweepExecutor::abandoned() const {
  return g_interrupts > 0 || worker_signal_ == SIGTERM || worker_signal_ == SIGINT ||
         worker_signal_ == SIGHUP;
}

std::optional<Record> SweepExecutor::run_case(const PlannedCase& c) {
  if (worker_ && current_ != group_of(c)) {
    worker_->finish();
    stop_worker();
  }
  worker_signal_ = 0;
  if (!worker_) {
    std::string error;
    if (!start_worker(c, error)) {
      if (abandoned()) return std::nullopt;
      return Record{{"status", "error"}, {"message", "worker failed to start: " + error}};
    }
  }
  if (!worker_->send("case", to_record(c.request))) {
    const std::string how = worker_->finish();
    worker_signal_ = worker_->signal();
    stop_worker();
    if (abandoned()) return std::nullopt;
    return Record{{"status", "crashed"}, {"message", "worker " + how + " before the case started"}};
  }
  std::string kind;
  Record result;
  const int timeout_ms = static_cast<int>(options_.case_timeout_seconds * 1000);
  switch (worker_->receive(kind, result, timeout_ms)) {
    case LineReader::Status::line:
      if (kind != "result") {
        stop_worker();
        return Record{{"status", "error"},
                      {"message", "worker protocol error: unexpected '" + kind + "'"}};
      }
      if (result.count("fatal")) {
        result["status"] = "crashed";
        result["message"] = "CUDA context lost, worker replaced: " + result["message"];
        result.erase("fatal");
        worker_->finish();
        stop_worker();
      }
      return result;
    case LineReader::Status::timeout:
      stop_worker();
      return Record{{"status", "timeout"},
                    {"message", "no result after " + option_number(options_.case_timeout_seconds) +
                                    " s (--case-timeout); worker killed"}};
    case LineReader::Status::eof: break;
  }
  const std::string how = worker_->finish();
  worker_signal_ = worker_->signal();
  stop_worker();
  if (abandoned()) return std::nullopt;
  return Record{{"status", "crashed"}, {"message", "worker " + how + " while running this case"}};
}

// Writes the case's samples, then its row; when either cannot be written, neither stays, the run
// stops, and the case is named as not recorded.
void SweepExecutor::record(const PlannedCase& c, const Record& result) {
  const ResultRow row = build_row(run_.context, c, device_info(c.request.device),
                                  copy_gbps_[c.request.device], result);
  SharedCsvFile::Span samples;
  try {
    const auto listed = result.find("samples_list");
    if (run_.samples != nullptr && listed != result.end()) {
      samples = run_.samples->append(row, listed->second);
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
    return;
  }
  run_.report.finished(row, result);
}

void SweepExecutor::execute(CaseQueue& queue, std::optional<int> device) {
  CaseQueue::Position position;
  while (const auto next = queue.next(device, position)) {
    if (run_.stopped()) break;
    const PlannedCase& c = *next;
    if (run_.done.count(key_of(run_, c))) {
      run_.report.skipped_resumed();
      continue;
    }
    run_.report.started(describe_case(c));
    const std::optional<Record> result = c.outcome.empty() ? run_case(c) : c.outcome;
    if (!result) {
      // Stopped from outside without a signal of ours: stop the run as if it had been ours.
      if (g_interrupts == 0) g_interrupts = 1;
      break;
    }
    record(c, *result);
  }
  if (worker_) worker_->finish();
  stop_worker();
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  RunOptions options;
  if (!parse_run_options(args, options)) return kExitOk;
  // From here on a signal is never silent: during planning it ends the run before any case.
  signal(SIGPIPE, SIG_IGN);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) signal(sig, on_interrupt);

  std::string why_no_device;
  const int device_count = cuda_device_count(&why_no_device);
  options.sweep.devices = parse_devices(options.devices, device_count);

  Plan plan;
  std::vector<std::shared_ptr<const PluginInfo>> runnable;
  {
    // The plugins' own code (loading, accepts()) runs in the probe, bounded by --case-timeout.
    PluginProbe probe(executable_path(), options.case_timeout_seconds);
    const Discovery discovery = probe.discover(plugin_search_path(options.plugin_dirs));
    for (const auto& failure : discovery.failures) {
      std::cerr << "kbench: skipped " << failure.file << ": " << failure.reason << "\n";
    }
    const auto selected =
        select_plugins(discovery.plugins, options.sweep.families, options.sweep.plugin_globs);
    std::string skipped;
    for (const auto& p : selected) {
      if (p->device == KB_DEVICE_CUDA && device_count == 0) {
        skipped += (skipped.empty() ? "" : ", ") + p->name;
      } else {
        runnable.push_back(p);
      }
    }
    if (!skipped.empty()) {
      std::cerr << "kbench: no CUDA device found (" << why_no_device
                << "); skipping the CUDA plugins: " << skipped << "\n";
    }
    if (runnable.empty()) {
      std::cerr << "kbench: nothing to run\n";
      return kExitOk;
    }
    // --split plans each case once; the devices then share it out as they go (see CaseQueue).
    SweepRequest sweep = options.sweep;
    if (options.split && !sweep.devices.empty()) sweep.devices = {sweep.devices.front()};
    const FamilyTable families(discovery.plugins);
    for (const auto& warning : families.warnings()) std::cerr << "kbench: " << warning << "\n";
    plan = plan_sweep(runnable, sweep, families, probe);
  }
  for (const auto& note : plan.notes) std::cerr << "kbench: " << note << "\n";
  if (plan.cases.empty()) {
    throw InputError("the request plans no case (see kbench list for what the plugins take)");
  }
  if (!options.shard.empty()) {
    const std::size_t planned = plan.cases.size();
    plan = shard(plan, options.shard);
    if (plan.cases.empty()) {
      // Legitimate in a job array with more tasks than cases.
      std::cerr << "kbench: shard " << options.shard << " of this " << planned
                << "-case plan is empty: nothing to run\n";
      return kExitOk;
    }
  }
  if (g_interrupts) {
    std::cerr << "kbench: interrupted while planning; nothing was run\n";
    return kExitInterrupted;
  }
  // Each shard repeats its own slice: the shards stay the slices of the plan they are without
  // repetitions, and a shard's rows hold every repetition of its cases.
  plan = repeat(plan, options.repetitions);

  RunContext context;
  context.host = host_name();
  context.run_id = options.run_id.empty() ? default_run_id(context.host) : options.run_id;
  context.cache = options.timing.cold ? "cold" : "hot";
  ResultsStore store(options.output);  // repairs, or refuses another header, before anything runs
  // A chosen run id may be in use by another process; a default one (time, host, pid) is not.
  std::optional<RunLock> run_lock;
  if (!options.run_id.empty()) run_lock.emplace(options.output, options.run_id, options.shard);
  std::unique_ptr<SamplesWriter> samples;
  if (!options.samples_out.empty()) {
    namespace fs = boost::filesystem;
    boost::system::error_code ignored;
    if (fs::equivalent(options.samples_out, options.output, ignored)) {
      throw InputError("--samples-out '" + options.samples_out + "' is the --output file");
    }
    samples = std::make_unique<SamplesWriter>(options.samples_out);
  }

  const std::string resume = resume_command(args, options, context.run_id);
  const std::string last_words =
      "kbench: interrupted twice; the cases in flight were abandoned. Resume with:\n  " + resume +
      "\n";
  g_last_words = last_words.c_str();

  SweepReport report(plan.cases.size());
  std::set<CaseKey> done;
  SharedRun shared{options, store, samples.get(), report, context, done};
  if (!options.run_id.empty()) {
    for (const auto& row : read_results(options.output)) {
      if (row.get("run_id") == context.run_id) done.insert(CaseKey(row, options.split));
    }
    // Without --resume, a case the run already has would get a second row.
    const auto repeated = std::count_if(plan.cases.begin(), plan.cases.end(),
                                        [&](const auto& c) { return done.count(key_of(shared, c)); });
    if (repeated > 0 && !options.resume) {
      throw InputError("run id '" + context.run_id + "' already has rows for " +
                       std::to_string(repeated) + " of the " + std::to_string(plan.cases.size()) +
                       " planned cases in '" + options.output +
                       "': add --resume to run only the missing ones, or choose another --run-id");
    }
  }

  // One lane per device (and one for host plugins), run side by side; with --split the device
  // lanes share one queue of the CUDA cases.
  const std::vector<int>& devices = options.sweep.devices;
  std::map<int, std::vector<PlannedCase>> by_device;
  for (const auto& c : plan.cases) by_device[c.request.device].push_back(c);
  std::vector<std::unique_ptr<CaseQueue>> queues;
  std::vector<std::pair<CaseQueue*, std::optional<int>>> lanes;
  for (auto& [device, cases] : by_device) {
    queues.push_back(std::make_unique<CaseQueue>(std::move(cases)));
    if (options.split && device >= 0) {
      for (int d : devices) lanes.emplace_back(queues.back().get(), d);
    } else {
      lanes.emplace_back(queues.back().get(), std::nullopt);
    }
  }
  if (lanes.size() > static_cast<std::size_t>(kMaxLanes)) {
    throw InputError("at most " + std::to_string(kMaxLanes - 1) + " devices at once");
  }

  // The workers' host work (inputs, references, verification) runs on threads; the lanes share
  // the cores. A KBENCH_HOST_THREADS of the user's own stands.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  setenv("KBENCH_HOST_THREADS",
         std::to_string(std::max<std::size_t>(1, cores / lanes.size())).c_str(), /*overwrite=*/0);

  std::cerr << "kbench: run " << context.run_id << ": " << plan.cases.size() << " cases from "
            << runnable.size() << " plugins on " << lanes.size() << " lane(s) -> " << options.output
            << "\n";
  std::vector<std::thread> threads;
  int lane = 0;
  for (const auto& [queue, device] : lanes) {
    threads.emplace_back([&shared, lane, queue = queue, device = device] {
      try {
        SweepExecutor(shared, lane).execute(*queue, device);
      } catch (...) {
        // A lane's fault ends the run, said by main; the other lanes finish their case in flight.
        const std::lock_guard<std::mutex> lock(shared.failure_mutex);
        if (!shared.internal_error) shared.internal_error = std::current_exception();
        shared.stopping = true;
      }
    });
    ++lane;
  }
  for (auto& t : threads) t.join();
  const int code = report.close();
  if (shared.internal_error) std::rethrow_exception(shared.internal_error);
  if (!shared.write_error.empty()) {
    std::string cases;
    for (const auto& c : shared.not_recorded) cases += (cases.empty() ? "" : ", ") + c;
    std::cerr << "kbench: " << shared.write_error << "; not recorded: " << cases
              << ". Make room, then resume with:\n  " << resume << "\n";
    return kExitWriteFailed;
  }
  if (g_interrupts) {
    std::cerr << "kbench: interrupted; the CSV holds every finished case. Resume with:\n  "
              << resume << "\n";
    return kExitInterrupted;
  }
  return code;
}

}  // namespace kb
