// `kbench run`: the parent. Plans the sweep, hands each plugin's cases to a worker process, and
// alone writes the results: whatever happens to a worker, the case it was running becomes a row.
// It never runs plugin code itself (loading and acceptance run in the probe process), and it
// never ends without a line saying why: interrupted, the resume command; a results file that
// cannot be written, the case not recorded and the resume command.
#include "commands.hpp"
#include "device/device_info.hpp"
#include "exit_codes.hpp"
#include "interruption.hpp"
#include "judge/row_builder.hpp"
#include "options.hpp"
#include "plan/case_queue.hpp"
#include "plugin_selection.hpp"
#include "protocol/plugin_probe.hpp"
#include "run_progress.hpp"
#include "run_session.hpp"
#include "store/case_key.hpp"
#include "store/samples_writer.hpp"
#include "tune/best_configs.hpp"
#include "tune/plan_tuned.hpp"
#include "util/input_error.hpp"
#include "util/lane_cpus.hpp"
#include "util/output_file.hpp"
#include "util/secret_seed.hpp"
#include "worker_supervisor.hpp"

#include <kbench/support/random.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace kb {
namespace {

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

// What a run's hidden shapes are drawn from: its run id where it names one (every shard of a job
// array draws the same), fresh entropy where it does not, mixed with the sweep's seed.
std::uint64_t hidden_shape_secret(const std::string& run_id, std::uint64_t seed) {
  std::uint64_t mixed = run_id.empty() ? secret_seed(seed) : seed;
  for (const char ch : run_id) mixed = mix64(mixed ^ static_cast<unsigned char>(ch));
  return mixed;
}

// Runs cases from the queue (on `device`, when given) until it is empty or the run stops; the
// cases `done` holds already have their rows (--resume).
void run_lane(SharedRun& run, int lane, CaseQueue& queue, std::optional<int> device,
              const std::set<CaseKey>& done) {
  WorkerSupervisor supervisor(run, lane);
  CaseQueue::Position position;
  while (const auto next = queue.next(device, position)) {
    if (run.stopped()) break;
    const PlannedCase& c = *next;
    if (done.count(key_of(run, c))) {
      run.progress.skipped_resumed();
      continue;
    }
    run.progress.started(describe_case(c));
    if (!supervisor.execute(c) && interrupted()) break;
  }
}

// The lanes the host cases are shared out over: --host-lanes N, or for `auto` one per host plugin
// with cases to run while every lane of the run keeps kCoresPerAutoLane whole cores, at least one.
constexpr int kCoresPerAutoLane = 4;
int host_lane_count(int asked, const std::vector<PlannedCase>& host_cases, int device_lanes,
                    const std::vector<CpuPlace>& cpus) {
  if (asked > 0) return asked;
  std::set<const PluginInfo*> plugins;
  for (const auto& c : host_cases) {
    if (!c.outcome) plugins.insert(c.plugin.get());
  }
  std::set<int> cores;
  for (const CpuPlace& cpu : cpus) cores.insert(cpu.core);
  const int fit = static_cast<int>(cores.size()) / kCoresPerAutoLane - device_lanes;
  return std::clamp(fit, 1, std::max(1, static_cast<int>(plugins.size())));
}

// Runs the plan's cases, one lane per device (and one for host plugins, or --host-lanes sharing
// their queue) side by side, each on cores of its own; with --split the device lanes share one
// queue of the CUDA cases. A lane's fault stops the run (SharedRun::internal_error) once the other
// lanes finish their case in flight.
void run_lanes(SharedRun& shared, const Plan& plan, const std::set<CaseKey>& done,
               std::size_t plugins) {
  const RunOptions& options = shared.options;
  const std::vector<int>& devices = options.sweep.devices;
  std::map<int, std::vector<PlannedCase>> by_device;
  for (const auto& c : plan.cases) by_device[c.request.device].push_back(c);
  std::vector<std::unique_ptr<CaseQueue>> queues;
  struct Lane {
    CaseQueue* queue;
    std::optional<int> device;  // with --split: the device this lane takes the queue's cases to
    std::string name;           // "host", "host 2", "device 0", for the time: line
  };
  std::vector<Lane> lanes;
  const std::vector<CpuPlace> cpus = allowed_cpus();
  const int device_lanes =
      options.split ? static_cast<int>(devices.size())
                    : static_cast<int>(by_device.size() - by_device.count(-1));
  for (auto& [device, cases] : by_device) {
    const int host_lanes =
        device < 0 ? host_lane_count(options.host_lanes, cases, device_lanes, cpus) : 0;
    queues.push_back(std::make_unique<CaseQueue>(std::move(cases)));
    if (options.split && device >= 0) {
      for (int d : devices) {
        lanes.push_back({queues.back().get(), d, "device " + std::to_string(d)});
      }
    } else if (host_lanes > 1) {
      for (int i = 1; i <= host_lanes; ++i) {
        lanes.push_back({queues.back().get(), std::nullopt, "host " + std::to_string(i)});
      }
    } else {
      lanes.push_back({queues.back().get(), std::nullopt,
                       device < 0 ? "host" : "device " + std::to_string(device)});
    }
  }
  if (lanes.size() > static_cast<std::size_t>(kMaxLanes)) {
    throw InputError("at most " + std::to_string(kMaxLanes) +
                     " lanes at once (one per device, and --host-lanes)");
  }

  // Each lane keeps to cores of its own, and the workers' host work (inputs, references,
  // verification) runs on as many threads as a lane has cores. A KBENCH_HOST_THREADS of the
  // user's own stands.
  const std::vector<std::vector<int>> cores =
      lane_cpus(cpus, static_cast<int>(lanes.size()));
  const std::size_t threads_per_lane = cores.empty() ? 1 : std::max<std::size_t>(1, cores.back().size());
  setenv("KBENCH_HOST_THREADS", std::to_string(threads_per_lane).c_str(), /*overwrite=*/0);

  std::cerr << "kbench: run " << shared.context.run_id << ": " << plan.cases.size()
            << " cases from " << plugins << " plugins on " << lanes.size() << " lane(s) -> "
            << options.output << "\n";
  std::vector<std::thread> threads;
  int lane = 0;
  for (const Lane& each : lanes) {
    threads.emplace_back([&shared, &done, lane, &each, &cores] {
      keep_thread_to(cores[lane]);
      const auto start = std::chrono::steady_clock::now();
      try {
        run_lane(shared, lane, *each.queue, each.device, done);
        shared.progress.lane_finished(
            each.name,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
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
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  RunOptions options;
  if (!parse_run_options(args, options)) return kExitOk;
  // From here on a signal is never silent: during planning it ends the run before any case.
  handle_interruptions();

  const CudaDevices cuda = cuda_devices();
  options.sweep.devices = parse_devices(options.devices, cuda.count);
  note_capabilities(options.sweep, cuda);
  if (!options.timing.counters.empty() && cuda.count == 0) {
    std::cerr << "kbench: --metrics: no CUDA device (" << cuda.why_none
              << "): no counters, the counters column stays empty\n";
  }
  // Read before any plugin is loaded: a malformed file is refused at once.
  const std::optional<BestConfigs> best =
      options.best_file.empty() ? std::nullopt
                                : std::optional<BestConfigs>(BestConfigs::read(options.best_file));

  PlannedRun planned =
      plan_run(options, cuda, "run", [&](const PluginSelection& selection, PluginProbe& probe) {
        // --split plans each case once; the devices then share it out as they go (see CaseQueue).
        SweepRequest sweep = options.sweep;
        if (options.split && !sweep.devices.empty()) sweep.devices = {sweep.devices.front()};
        if (best) {
          std::map<int, GpuModelCells> models;
          for (int device : cuda.count > 0 ? sweep.devices : std::vector<int>{}) {
            const DeviceInfo info = query_device(device);
            models[device] = {info.name, compute_capability(info)};
          }
          return plan_tuned(selection.runnable, sweep, selection.families, *best,
                            options.best_file, models, probe);
        }
        Plan plan = plan_sweep(selection.runnable, sweep, selection.families, probe);
        // A nightly (repetitions) also runs a shape near each asked one, the same for every shard
        // of the run: drawn from its run id (or afresh without one) and the sweep's seed.
        if (options.repetitions > 1 && !options.no_hidden_shapes) {
          plan = with_hidden_shapes(plan, hidden_shape_secret(options.run_id, sweep.seed), probe,
                                    sweep.capabilities);
        }
        return plan;
      });
  // The run's exit code says that files of the plugin folders were skipped.
  const std::size_t skipped_files = planned.skipped_files;
  if (planned.plugins == 0) return skipped_files > 0 ? kExitCasesFailed : kExitOk;
  Plan& plan = planned.plan;
  if (plan.cases.empty()) {
    throw InputError("the request plans no case (see kbench list for what the plugins take)");
  }
  if (!options.shard.empty()) {
    const std::size_t planned_cases = plan.cases.size();
    plan = shard(plan, options.shard);
    if (plan.cases.empty()) {
      // Legitimate in a job array with more tasks than cases.
      std::cerr << "kbench: shard " << options.shard << " of this " << planned_cases
                << "-case plan is empty: nothing to run\n";
      return kExitOk;
    }
  }
  if (interrupted_while_planning()) return kExitInterrupted;
  // Each shard repeats its own slice: the shards stay the slices of the plan they are without
  // repetitions, and a shard's rows hold every repetition of its cases.
  // Every case of a plan is held in memory and reported at the end: a plan of more than a
  // million (a billion repetitions, say) is refused before it is built, not when memory runs out.
  if (plan.cases.size() * static_cast<std::size_t>(options.repetitions) > kMaxPlannedCases) {
    throw InputError("the plan holds " + std::to_string(plan.cases.size()) + " cases, times " +
                     std::to_string(options.repetitions) + " repetitions: more than the " +
                     std::to_string(kMaxPlannedCases) + " cases one run takes; split it (--shard)");
  }
  plan = repeat(plan, options.repetitions);

  RunSession session(options, "run", args, options.shard.empty() ? "" : shard_name(options.shard),
                     "the cases in flight were");
  std::unique_ptr<SamplesWriter> samples;
  if (!options.samples_out.empty()) {
    refuse_output_onto_input("--samples-out", options.samples_out, options.output,
                             "the --output file");
    samples = std::make_unique<SamplesWriter>(options.samples_out);
  }

  RunProgress progress(plan.cases.size());
  SharedRun shared{options, session.store(), samples.get(), progress, session.context()};
  std::set<CaseKey> done;
  for (const auto& record : session.own_rows()) done.insert(CaseKey(record, options.split));
  session.refuse_rerun(static_cast<std::size_t>(std::count_if(
                           plan.cases.begin(), plan.cases.end(),
                           [&](const auto& c) { return done.count(key_of(shared, c)); })),
                       plan.cases.size(), "planned cases", "run only the missing ones");

  run_lanes(shared, plan, done, planned.plugins);
  const int code = progress.close();
  if (shared.internal_error) {
    // main says what failed; the cases not run yet have no row, so the run resumes.
    std::cerr << "kbench: the run stopped; the CSV holds every finished case. Resume with:\n  "
              << session.resume() << "\n";
    std::rethrow_exception(shared.internal_error);
  }
  if (const auto failed = session.write_failed(shared)) return *failed;
  if (const auto stopped = session.interrupted_exit("finished case")) return *stopped;
  if (code == kExitOk && skipped_files > 0) {
    std::cerr << "kbench: exit " << kExitCasesFailed << ": " << skipped_files
              << " file(s) of the plugin folders could not be loaded (skipped, above)\n";
    return kExitCasesFailed;
  }
  return code;
}

}  // namespace kb
