// `kbench run`: the parent. Plans the sweep, hands each plugin's cases to a worker process, and
// alone writes the results: whatever happens to a worker, the case it was running becomes a row.
// It never runs plugin code itself (loading and acceptance run in the probe process), and it
// never ends without a line saying why: interrupted, the resume command; a results file that
// cannot be written, the case not recorded and the resume command.
#include "case_executor.hpp"
#include "commands.hpp"
#include "device/device_info.hpp"
#include "exit_codes.hpp"
#include "interruption.hpp"
#include "kernel_parts.hpp"
#include "options.hpp"
#include "plan/case_queue.hpp"
#include "plugin/loader.hpp"
#include "plugin_selection.hpp"
#include "protocol/plugin_probe.hpp"
#include "resume.hpp"
#include "run_progress.hpp"
#include "store/case_key.hpp"
#include "store/record_reader.hpp"
#include "store/result_record.hpp"
#include "store/results_store.hpp"
#include "judge/row_builder.hpp"
#include "store/run_lock.hpp"
#include "store/samples_writer.hpp"
#include "tune/best_configs.hpp"
#include "tune/plan_tuned.hpp"
#include "util/input_error.hpp"
#include "util/lane_cpus.hpp"
#include "util/output_file.hpp"
#include "util/secret_seed.hpp"

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
  CaseExecutor executor(run, lane);
  CaseQueue::Position position;
  while (const auto next = queue.next(device, position)) {
    if (run.stopped()) break;
    const PlannedCase& c = *next;
    if (done.count(key_of(run, c))) {
      run.progress.skipped_resumed();
      continue;
    }
    run.progress.started(describe_case(c));
    if (!executor.execute(c) && interrupted()) break;
  }
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  RunOptions options;
  if (!parse_run_options(args, options)) return kExitOk;
  // From here on a signal is never silent: during planning it ends the run before any case.
  handle_interruptions();

  std::string why_no_device;
  const int device_count = cuda_device_count(&why_no_device);
  options.sweep.devices = parse_devices(options.devices, device_count);
  for (int device : device_count > 0 ? options.sweep.devices : std::vector<int>{}) {
    options.sweep.capabilities[device] = device_capability(device);
  }
  if (!options.timing.counters.empty() && device_count == 0) {
    std::cerr << "kbench: --metrics: no CUDA device (" << why_no_device
              << "): no counters, the counters column stays empty\n";
  }
  // Read before any plugin is loaded: a malformed file is refused at once.
  const std::optional<BestConfigs> best =
      options.best_file.empty() ? std::nullopt
                                : std::optional<BestConfigs>(BestConfigs::read(options.best_file));

  Plan plan;
  std::size_t plugins = 0;
  std::size_t skipped_files = 0;
  {
    // The plugins' own code (loading, accepts()) runs in the probe, bounded by --case-timeout.
    PluginProbe probe(executable_path(), options.case_timeout_seconds);
    const PluginSelection selection =
        select_runnable(probe, options.sweep, options.plugin_dirs, options.kernel_files,
                        device_count, why_no_device);
    skipped_files = selection.skipped_files;
    if (selection.runnable.empty()) {
      std::cerr << "kbench: nothing to run\n";
      return skipped_files > 0 ? kExitCasesFailed : kExitOk;
    }
    plugins = selection.runnable.size();
    // --split plans each case once; the devices then share it out as they go (see CaseQueue).
    SweepRequest sweep = options.sweep;
    if (options.split && !sweep.devices.empty()) sweep.devices = {sweep.devices.front()};
    if (best) {
      std::map<int, GpuModelCells> models;
      for (int device : device_count > 0 ? sweep.devices : std::vector<int>{}) {
        const DeviceInfo info = query_device(device);
        models[device] = {info.name, compute_capability(info)};
      }
      plan = plan_tuned(selection.runnable, sweep, selection.families, *best, options.best_file,
                        models, probe);
    } else {
      plan = plan_sweep(selection.runnable, sweep, selection.families, probe);
      // A nightly (repetitions) also runs a shape near each asked one, the same for every shard
      // of the run: drawn from its run id (or afresh without one) and the sweep's seed.
      if (options.repetitions > 1 && !options.no_hidden_shapes) {
        plan = with_hidden_shapes(plan, hidden_shape_secret(options.run_id, sweep.seed), probe,
                                  sweep.capabilities);
      }
    }
    // Kernel files are compiled (or found in the cache) and checked before any case runs.
    check_planned_kernels(probe, plan);
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
  if (interrupted()) {
    std::cerr << "kbench: interrupted while planning; nothing was run\n";
    return kExitInterrupted;
  }
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

  RunContext context;
  context.host = host_name();
  context.run_id = options.run_id.empty() ? default_run_id(context.host) : options.run_id;
  context.cache = options.timing.cold ? "cold" : "hot";
  ResultsStore store(options.output);  // repairs, or refuses another header, before anything runs
  // A chosen run id may be in use by another process; a default one (time, host, pid) is not.
  std::optional<RunLock> run_lock;
  if (!options.run_id.empty()) {
    run_lock.emplace(options.output, options.run_id,
                     options.shard.empty() ? "" : shard_name(options.shard));
  }
  std::unique_ptr<SamplesWriter> samples;
  if (!options.samples_out.empty()) {
    refuse_output_onto_input("--samples-out", options.samples_out, options.output,
                             "the --output file");
    samples = std::make_unique<SamplesWriter>(options.samples_out);
  }

  const std::string resume = resume_command("run", args, context.run_id, !options.run_id.empty());
  const std::string last_words =
      "kbench: interrupted twice; the cases in flight were abandoned. Resume with:\n  " + resume +
      "\n";
  set_last_words(last_words.c_str());

  RunProgress progress(plan.cases.size());
  std::set<CaseKey> done;
  SharedRun shared{options, store, samples.get(), progress, context};
  if (!options.run_id.empty()) {
    // The run's own rows alone: a year of other nights is never made records.
    for (const auto& record : read_records(
             options.output, {{}, {}, {context.run_id, hidden_run_id(context.run_id)}})) {
      done.insert(CaseKey(record, options.split));
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
  struct Lane {
    CaseQueue* queue;
    std::optional<int> device;  // with --split: the device this lane takes the queue's cases to
    std::string name;           // "host", "device 0", for the time: line
  };
  std::vector<Lane> lanes;
  for (auto& [device, cases] : by_device) {
    queues.push_back(std::make_unique<CaseQueue>(std::move(cases)));
    if (options.split && device >= 0) {
      for (int d : devices) {
        lanes.push_back({queues.back().get(), d, "device " + std::to_string(d)});
      }
    } else {
      lanes.push_back({queues.back().get(), std::nullopt,
                       device < 0 ? "host" : "device " + std::to_string(device)});
    }
  }
  if (lanes.size() > static_cast<std::size_t>(kMaxLanes)) {
    throw InputError("at most " + std::to_string(kMaxLanes - 1) + " devices at once");
  }

  // Each lane keeps to cores of its own, and the workers' host work (inputs, references,
  // verification) runs on as many threads as a lane has cores. A KBENCH_HOST_THREADS of the
  // user's own stands.
  const std::vector<std::vector<int>> cores =
      lane_cpus(allowed_cpus(), static_cast<int>(lanes.size()));
  const std::size_t threads_per_lane = cores.empty() ? 1 : std::max<std::size_t>(1, cores.back().size());
  setenv("KBENCH_HOST_THREADS", std::to_string(threads_per_lane).c_str(), /*overwrite=*/0);

  std::cerr << "kbench: run " << context.run_id << ": " << plan.cases.size() << " cases from "
            << plugins << " plugins on " << lanes.size() << " lane(s) -> " << options.output
            << "\n";
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
  const int code = progress.close();
  if (shared.internal_error) {
    // main says what failed; the cases not run yet have no row, so the run resumes.
    std::cerr << "kbench: the run stopped; the CSV holds every finished case. Resume with:\n  "
              << resume << "\n";
    std::rethrow_exception(shared.internal_error);
  }
  if (!shared.write_error.empty()) {
    std::string cases;
    for (const auto& c : shared.not_recorded) cases += (cases.empty() ? "" : ", ") + c;
    std::cerr << "kbench: " << shared.write_error << "; not recorded: " << cases
              << ". When the file can be written, resume with:\n  " << resume << "\n";
    return kExitWriteFailed;
  }
  if (interrupted()) {
    std::cerr << "kbench: interrupted; the CSV holds every finished case. Resume with:\n  "
              << resume << "\n";
    return kExitInterrupted;
  }
  if (code == kExitOk && skipped_files > 0) {
    std::cerr << "kbench: exit " << kExitCasesFailed << ": " << skipped_files
              << " file(s) of the plugin folders could not be loaded (skipped, above)\n";
    return kExitCasesFailed;
  }
  return code;
}

}  // namespace kb
