// `kbench run`: the parent. Plans the sweep, hands each plugin's cases to a worker process, and
// alone writes the results: whatever happens to a worker, the case it was running becomes a row.
#include "commands.hpp"

#include "case_queue.hpp"
#include "device_info.hpp"
#include "input_error.hpp"
#include "loader.hpp"
#include "options.hpp"
#include "results_store.hpp"
#include "row_builder.hpp"
#include "samples_writer.hpp"
#include "sweep_report.hpp"
#include "worker_process.hpp"

#include <signal.h>
#include <unistd.h>

#include <boost/dll/runtime_symbol_info.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

namespace kb {
namespace {

constexpr int kMaxLanes = 64;  // one lane per device in use, plus the host
volatile sig_atomic_t g_interrupts = 0;
volatile sig_atomic_t g_worker_pids[kMaxLanes] = {};

// First SIGINT/SIGTERM: finish the cases in flight, then stop. Second: stop now (every row
// already written is whole, so the CSV stays valid).
void on_interrupt(int) {
  if (++g_interrupts >= 2) {
    for (int lane = 0; lane < kMaxLanes; ++lane) {
      if (g_worker_pids[lane] > 0) kill(g_worker_pids[lane], SIGKILL);
    }
    _exit(130);
  }
}

std::vector<std::string> split_all(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) {
    for (const auto& part : split_list(item)) out.push_back(part);
  }
  return out;
}

std::vector<int> parse_devices(const std::string& text, int available) {
  std::vector<int> devices;
  if (text == "all") {
    for (int i = 0; i < available; ++i) devices.push_back(i);
    return devices;
  }
  for (const auto& item : split_list(text)) {
    std::size_t used = 0;
    int index = -1;
    try {
      index = std::stoi(item, &used);
    } catch (...) {
    }
    if (used != item.size() || index < 0) throw InputError("malformed device '" + item + "'");
    if (available > 0 && index >= available) {
      throw InputError("device " + item + " is not present (" + std::to_string(available) +
                       " CUDA devices)");
    }
    devices.push_back(index);
  }
  if (devices.empty()) throw InputError("empty device list '" + text + "'");
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

// A case's identity for --resume, each repetition its own; with --split the device a case ran on
// is not part of it.
std::string resume_key(const std::string& plugin, const std::string& dtype, const std::string& op,
                       const std::string& shape, const std::string& block,
                       const std::string& device, const std::string& repetition, bool split) {
  return case_key(plugin, dtype, op, shape, block, split && device != "host" ? "any" : device) +
         "|" + repetition;
}

// Everything the lanes of one run share; each member is safe to use from several lanes.
struct SharedRun {
  const RunOptions& options;
  ResultsStore& store;
  SamplesWriter* samples;  // null without --samples-out
  SweepReport& report;
  RunContext context;
  const std::set<std::string>& done;
};

// Runs the cases of one lane (one device, or the host) in order, one worker at a time.
class SweepExecutor {
 public:
  SweepExecutor(SharedRun& run, int lane) : run_(run), options_(run.options), lane_(lane) {}

  // Runs cases from the queue until it is empty (on `device`, when given) or the run is
  // interrupted.
  void execute(CaseQueue& queue, std::optional<int> device);

 private:
  // What a worker serves: one plugin on one device, for one repetition (a repetition that reused
  // the worker of the one before would share its warm state, and not be a repetition).
  struct Group {
    const LoadedPlugin* plugin = nullptr;
    int device = -1;
    int repetition = 0;
    bool operator!=(const Group& other) const {
      return plugin != other.plugin || device != other.device || repetition != other.repetition;
    }
  };
  Record run_case(const PlannedCase& c);
  bool start_worker(const PlannedCase& c, std::string& error);
  void stop_worker();
  const DeviceInfo* device_info(int index);
  static Group group_of(const PlannedCase& c) {
    return {c.plugin.get(), c.request.device, c.repetition};
  }

  SharedRun& run_;
  const RunOptions& options_;
  int lane_;
  std::unique_ptr<WorkerProcess> worker_;
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
      boost::dll::program_location().string(), "worker", "--plugin-file", c.plugin->file,
      "--device", std::to_string(c.request.device),
      "--copy-gbps", std::to_string(copy_gbps_[c.request.device]),
      "--min-samples", std::to_string(rule.min_samples), "--min-time",
      std::to_string(rule.min_seconds), "--max-time", std::to_string(rule.max_seconds),
      "--max-noise", std::to_string(rule.max_noise),
      "--energy-window", std::to_string(options_.timing.energy_window_seconds)};
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
    stop_worker();
    return false;
  }
  if (c.request.device >= 0 && copy_gbps_[c.request.device] <= 0) {
    copy_gbps_[c.request.device] = std::stod(hello["copy_gbps"]);
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

Record SweepExecutor::run_case(const PlannedCase& c) {
  if (worker_ && current_ != group_of(c)) {
    worker_->finish();
    stop_worker();
  }
  if (!worker_) {
    std::string error;
    if (!start_worker(c, error)) return {{"status", "error"}, {"message", "worker failed to start: " + error}};
  }
  if (!worker_->send("case", to_record(c.request))) {
    const std::string how = worker_->finish();
    stop_worker();
    return {{"status", "crashed"}, {"message", "worker " + how + " before the case started"}};
  }
  std::string kind;
  Record result;
  const int timeout_ms = static_cast<int>(options_.case_timeout_seconds * 1000);
  switch (worker_->receive(kind, result, timeout_ms)) {
    case LineReader::Status::line:
      if (kind != "result") {
        stop_worker();
        return {{"status", "error"}, {"message", "worker protocol error: unexpected '" + kind + "'"}};
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
      return {{"status", "timeout"},
              {"message", "no result after " + std::to_string(options_.case_timeout_seconds) +
                              " s (--case-timeout); worker killed"}};
    case LineReader::Status::eof: break;
  }
  const std::string how = worker_->finish();
  stop_worker();
  return {{"status", "crashed"}, {"message", "worker " + how + " while running this case"}};
}

void SweepExecutor::execute(CaseQueue& queue, std::optional<int> device) {
  CaseQueue::Position position;
  while (const auto next = queue.next(device, position)) {
    if (g_interrupts) break;
    const PlannedCase* c = &*next;
    const std::string key = resume_key(
        c->plugin->api->name, dtype_name(c->request.dtype), c->request.op,
        format_extent(c->request.shape), format_block(c->request.block),
        c->request.device < 0 ? "host" : std::to_string(c->request.device),
        std::to_string(c->repetition), options_.split);
    if (run_.done.count(key)) {
      run_.report.skipped_resumed();
      continue;
    }
    run_.report.started(std::string(c->plugin->api->name) + " " + dtype_name(c->request.dtype) +
                        " " + format_extent(c->request.shape) + " " +
                        format_block(c->request.block));
    Record result;
    if (!c->unsupported_reason.empty()) {
      result = {{"status", "unsupported"}, {"message", c->unsupported_reason}};
    } else {
      result = run_case(*c);
    }
    const ResultRow row = build_row(run_.context, *c, device_info(c->request.device),
                                    copy_gbps_[c->request.device], result);
    run_.store.append(row);
    if (run_.samples != nullptr) run_.samples->append(row, result["samples_list"]);
    run_.report.finished(row, result);
  }
  if (worker_) worker_->finish();
  stop_worker();
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  RunOptions options;
  if (!parse_run_options(args, options)) return 0;
  options.sweep.families = split_all(options.sweep.families);
  options.sweep.plugin_globs = split_all(options.sweep.plugin_globs);

  const Discovery discovery = discover_plugins(plugin_search_path(options.plugin_dirs));
  for (const auto& failure : discovery.failures) {
    std::cerr << "kbench: skipped " << failure.file << ": " << failure.reason << "\n";
  }
  const auto selected =
      select_plugins(discovery.plugins, options.sweep.families, options.sweep.plugin_globs);

  std::string why_no_device;
  const int device_count = cuda_device_count(&why_no_device);
  options.sweep.devices = parse_devices(options.devices, device_count);
  std::vector<std::shared_ptr<const LoadedPlugin>> runnable;
  std::string skipped;
  for (const auto& p : selected) {
    if (p->api->device == KB_DEVICE_CUDA && device_count == 0) {
      skipped += (skipped.empty() ? "" : ", ") + std::string(p->api->name);
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
    return 0;
  }

  // --split plans each case once; the devices then share it out as they go (see CaseQueue).
  const std::vector<int> devices = options.sweep.devices;
  if (options.split) options.sweep.devices = {devices.front()};
  Plan plan = plan_sweep(runnable, options.sweep);
  // Each shard repeats its own slice: the shards stay the slices of the plan they are without
  // repetitions, and a shard's rows hold every repetition of its cases.
  if (!options.shard.empty()) plan = shard(plan, options.shard);
  plan = repeat(plan, options.repetitions);
  ResultsStore store(options.output);  // refuses a file with another header before anything runs
  std::unique_ptr<SamplesWriter> samples;
  if (!options.samples_out.empty()) samples = std::make_unique<SamplesWriter>(options.samples_out);

  RunContext context;
  context.host = host_name();
  context.run_id = options.run_id.empty() ? default_run_id(context.host) : options.run_id;
  context.cache = options.timing.cold ? "cold" : "hot";
  std::set<std::string> done;
  if (options.resume) {
    for (const auto& row : read_results(options.output)) {
      if (row.get("run_id") == context.run_id) {
        done.insert(resume_key(row.get("plugin"), row.get("dtype"), row.get("op"),
                               row.get("shape"), row.get("block"), row.get("device"),
                               row.get("repetition"), options.split));
      }
    }
  }

  // One lane per device (and one for host plugins), run side by side; with --split the device
  // lanes share one queue of the CUDA cases.
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
  signal(SIGPIPE, SIG_IGN);
  signal(SIGINT, on_interrupt);
  signal(SIGTERM, on_interrupt);
  SweepReport report(plan.cases.size());
  SharedRun shared{options, store, samples.get(), report, context, done};
  std::vector<std::thread> threads;
  int lane = 0;
  for (const auto& [queue, device] : lanes) {
    threads.emplace_back([&shared, lane, queue = queue, device = device] {
      SweepExecutor(shared, lane).execute(*queue, device);
    });
    ++lane;
  }
  for (auto& t : threads) t.join();
  const bool completed = g_interrupts == 0;
  const int code = report.close();
  if (!completed) {
    std::string command = "kbench run";
    for (const auto& a : args) {
      if (a != "--resume") command += " " + shell_quote(a);
    }
    if (options.run_id.empty()) command += " --run-id " + shell_quote(context.run_id);
    std::cerr << "kbench: interrupted; the CSV holds every finished case. Resume with:\n  "
              << command << " --resume\n";
    return 130;
  }
  return code;
}

}  // namespace kb
