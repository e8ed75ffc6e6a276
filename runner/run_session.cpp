#include "run_session.hpp"

#include "device/device_info.hpp"
#include "exit_codes.hpp"
#include "interruption.hpp"
#include "kernel_parts.hpp"
#include "plugin/loader.hpp"
#include "resume.hpp"
#include "store/record_reader.hpp"
#include "util/input_error.hpp"

#include <iostream>

namespace kb {

CudaDevices cuda_devices() {
  CudaDevices devices;
  devices.count = cuda_device_count(&devices.why_none);
  return devices;
}

void note_capabilities(SweepRequest& sweep, const CudaDevices& devices) {
  for (int device : devices.count > 0 ? sweep.devices : std::vector<int>{}) {
    sweep.capabilities[device] = device_capability(device);
  }
}

PlannedRun plan_run(const RunOptions& options, const CudaDevices& devices, const std::string& verb,
                    const Planner& planner) {
  // The plugins' own code (loading, accepts()) runs in the probe, bounded by --case-timeout.
  PluginProbe probe(executable_path(), options.case_timeout_seconds);
  const PluginSelection selection =
      select_runnable(probe, options.sweep, options.plugin_dirs, options.kernel_files,
                      devices.count, devices.why_none);
  if (selection.runnable.empty()) {
    std::cerr << "kbench: nothing to " << verb << "\n";
    return {{}, 0, selection.skipped_files};
  }
  PlannedRun planned{planner(selection, probe), selection.runnable.size(), selection.skipped_files};
  // Kernel files are compiled (or found in the cache) and checked before any case runs.
  check_planned_kernels(probe, planned.plan);
  for (const auto& note : planned.plan.notes) std::cerr << "kbench: " << note << "\n";
  return planned;
}

namespace {

RunContext context_of(const RunOptions& options) {
  RunContext context;
  context.host = host_name();
  context.run_id = options.run_id.empty() ? default_run_id(context.host) : options.run_id;
  context.cache = options.timing.cold ? "cold" : "hot";
  return context;
}

}  // namespace

bool interrupted_while_planning() {
  if (!interrupted()) return false;
  std::cerr << "kbench: interrupted while planning; nothing was run\n";
  return true;
}

RunSession::RunSession(const RunOptions& options, const std::string& command,
                       const std::vector<std::string>& args, const std::string& shard,
                       const std::string& in_flight)
    : options_(options),
      context_(context_of(options)),
      store_(options.output) {
  if (!options.run_id.empty()) lock_.emplace(options.output, options.run_id, shard);
  resume_ = resume_command(command, args, context_.run_id, !options.run_id.empty());
  last_words_ =
      "kbench: interrupted twice; " + in_flight + " abandoned. Resume with:\n  " + resume_ + "\n";
  set_last_words(last_words_.c_str());
}

std::vector<ResultRecord> RunSession::own_rows() const {
  if (options_.run_id.empty()) return {};
  // The run's own rows alone: a year of other nights is never made records.
  return read_records(options_.output,
                      {{}, {}, {context_.run_id, hidden_run_id(context_.run_id)}});
}

void RunSession::refuse_rerun(std::size_t repeated, std::size_t planned, const std::string& what,
                              const std::string& resume_does) const {
  if (repeated == 0 || options_.resume) return;
  throw InputError("run id '" + context_.run_id + "' already has rows for " +
                   std::to_string(repeated) + " of the " + std::to_string(planned) + " " + what +
                   " in '" + options_.output + "': add --resume to " + resume_does +
                   ", or choose another --run-id");
}

std::optional<int> RunSession::write_failed(const SharedRun& shared) const {
  if (shared.write_error.empty()) return std::nullopt;
  std::string cases;
  for (const auto& c : shared.not_recorded) cases += (cases.empty() ? "" : ", ") + c;
  std::cerr << "kbench: " << shared.write_error << "; not recorded: " << cases
            << ". When the file can be written, resume with:\n  " << resume_ << "\n";
  return kExitWriteFailed;
}

std::optional<int> RunSession::interrupted_exit(const std::string& kept) const {
  if (!interrupted()) return std::nullopt;
  std::cerr << "kbench: interrupted; the CSV holds every " << kept << ". Resume with:\n  "
            << resume_ << "\n";
  return kExitInterrupted;
}

}  // namespace kb
