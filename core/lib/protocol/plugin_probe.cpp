#include "protocol/plugin_probe.hpp"

#include "case/case_spec.hpp"
#include "plugin/kernel_manifest.hpp"
#include "protocol/child_answers.hpp"
#include "protocol/kernel_request.hpp"
#include "protocol/sandbox.hpp"
#include "util/short_of_resources.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <system_error>
#include <thread>

namespace kb {
namespace {

// A `refused` answer's reason; a malformed one says so.
std::string refusal_of(const Record& fields) {
  try {
    return decode_reason(fields);
  } catch (const ProtocolError& e) {
    return std::string("probe protocol error: ") + e.what();
  }
}

// Probes loading at once. A probe's time is mostly its start and the loader mapping libraries
// (cuBLAS: a fifth of a second), much of it waiting rather than computing: eight at a time load
// the 45 files of kbench's own plugins fastest even on two cores, and leave a larger machine's
// other jobs most of it.
constexpr std::size_t kProbesAtOnce = 8;

// Probes kept with their plugin loaded for its accepts() questions, at most: a process each.
constexpr std::size_t kMostProbesKept = 64;

}  // namespace

PluginProbe::PluginProbe(std::string executable, double timeout_seconds)
    : executable_(std::move(executable)), timeout_ms_(static_cast<int>(timeout_seconds * 1000)) {
  check_room_for_private_temporary_folders();
}

PluginProbe::~PluginProbe() = default;

std::unique_ptr<FileProbe> PluginProbe::probe_of(const std::string& file) {
  std::map<std::string, Kept> ended;  // outside the lock
  {
    const std::lock_guard<std::mutex> lock(kept_mutex_);
    if (const auto it = kept_.find(file); it != kept_.end()) {
      auto probe = std::move(it->second.probe);
      kept_.erase(it);
      return probe;
    }
  }
  try {
    return std::make_unique<FileProbe>(executable_, file, timeout_ms_);
  } catch (const ShortOfResources&) {
    // The probes kept hold descriptors and memory of kbench's: ended, they make room.
    {
      const std::lock_guard<std::mutex> lock(kept_mutex_);
      if (kept_.empty()) throw;
      ended.swap(kept_);
    }
    ended.clear();
    return std::make_unique<FileProbe>(executable_, file, timeout_ms_);
  }
}

void PluginProbe::keep(std::unique_ptr<FileProbe> probe) {
  if (!probe->running()) return;
  std::unique_ptr<FileProbe> ended;  // outside the lock
  const std::lock_guard<std::mutex> lock(kept_mutex_);
  if (kept_.size() >= kMostProbesKept) {
    const auto oldest = std::min_element(kept_.begin(), kept_.end(), [](const auto& a, const auto& b) {
      return a.second.last_used < b.second.last_used;
    });
    ended = std::move(oldest->second.probe);
    kept_.erase(oldest);
  }
  const std::string file = probe->file();
  kept_[file] = Kept{std::move(probe), ++uses_};
}

std::shared_ptr<const PluginInfo> PluginProbe::load_with(std::unique_ptr<FileProbe> probe,
                                                         std::string& failure) {
  const std::string file = probe->file();
  const FileProbe::Answer answer = probe->ask("load", {});
  if (answer.kind == "plugin") {
    std::shared_ptr<PluginInfo> plugin;
    try {
      plugin = std::make_shared<PluginInfo>(decode_plugin(answer.fields));
    } catch (const std::exception&) {
      failure = "probe protocol error: incomplete plugin record";
      return nullptr;
    }
    // The file is the one asked about, whatever the probe said.
    plugin->file = file;
    if (plugin->has_accepts) keep(std::move(probe));
    return plugin;
  }
  failure = answer.kind == "refused" ? refusal_of(answer.fields)
            : answer.kind.empty()    ? answer.failure
                                     : "probe protocol error: unexpected '" + answer.kind + "'";
  return nullptr;
}

std::shared_ptr<const PluginInfo> PluginProbe::load(const std::string& file, std::string& failure) {
  return load_with(probe_of(file), failure);
}

Discovery PluginProbe::discover(const std::vector<std::string>& dirs) {
  Discovery found;
  const std::vector<std::string> files = plugin_files(dirs, found.failures);
  std::vector<std::shared_ptr<const PluginInfo>> loaded(files.size());
  std::vector<std::string> failures(files.size());
  // A file whose probe kbench could not start or keep while the others ran (descriptors,
  // processes or memory shared out): loaded again below, alone.
  std::vector<char> again(files.size(), 0);
  // The probes are started here, on the calling thread, and answered on others: a probe ends
  // with the thread that started it (PR_SET_PDEATHSIG), and one kept must outlive those threads.
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::pair<std::size_t, std::unique_ptr<FileProbe>>> started;
  std::size_t in_flight = 0;
  bool all_started = false;
  const auto answer_some = [&] {
    while (true) {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return !started.empty() || all_started; });
      if (started.empty()) return;
      auto [i, probe] = std::move(started.front());
      started.pop_front();
      lock.unlock();
      try {
        loaded[i] = load_with(std::move(probe), failures[i]);
      } catch (const std::exception&) {
        again[i] = 1;
      }
      lock.lock();
      --in_flight;
      changed.notify_all();
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < std::min(files.size(), kProbesAtOnce); ++t) {
    try {
      threads.emplace_back(answer_some);
    } catch (const std::system_error&) {
      break;  // no more threads: fewer probes at once
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (threads.empty()) {
      again[i] = 1;
      continue;
    }
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return in_flight < threads.size(); });
    }
    std::unique_ptr<FileProbe> probe;
    try {
      probe = probe_of(files[i]);
    } catch (const std::exception&) {
      again[i] = 1;
      continue;
    }
    const std::lock_guard<std::mutex> lock(mutex);
    started.emplace_back(i, std::move(probe));
    ++in_flight;
    changed.notify_all();
  }
  {
    const std::lock_guard<std::mutex> lock(mutex);
    all_started = true;
    changed.notify_all();
  }
  for (auto& thread : threads) thread.join();
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!again[i]) continue;
    // No other probe running: what goes wrong now is kbench's own trouble, and ends the command.
    std::map<std::string, Kept> ended;
    {
      const std::lock_guard<std::mutex> lock(kept_mutex_);
      ended.swap(kept_);
    }
    ended.clear();
    failures[i].clear();
    loaded[i] = load(files[i], failures[i]);
  }

  std::map<std::string, std::string> file_of_name;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string& file = files[i];
    auto& plugin = loaded[i];
    if (!plugin) {
      found.failures.push_back({file, failures[i]});
      continue;
    }
    if (const auto it = file_of_name.find(plugin->name); it != file_of_name.end()) {
      found.failures.push_back({file,
                                "duplicate plugin name '" + plugin->name +
                                    "' (already loaded from " + it->second + ")",
                                /*duplicate=*/true});
      continue;
    }
    file_of_name[plugin->name] = file;
    (plugin->kind == PartKind::family ? found.families : found.plugins).push_back(std::move(plugin));
  }
  std::sort(found.plugins.begin(), found.plugins.end(),
            [](const auto& a, const auto& b) { return a->name < b->name; });
  // Each strategy learns its referee; a version 3 strategy without one cannot run.
  std::vector<std::shared_ptr<const PluginInfo>> strategies;
  for (auto& plugin : found.plugins) {
    const auto family = std::find_if(found.families.begin(), found.families.end(),
                                     [&](const auto& f) { return f->name == plugin->family; });
    if (family == found.families.end()) {
      if (plugin->refereed_by_family()) {
        found.failures.push_back({plugin->file, "no referee: the library of the '" +
                                                    plugin->family + "' family (exporting " +
                                                    KB_FAMILY_ENTRY_SYMBOL + ") was not found"});
        continue;
      }
    } else {
      auto refereed = std::make_shared<PluginInfo>(*plugin);
      refereed->referee = *family;
      plugin = refereed;
    }
    strategies.push_back(plugin);
  }
  found.plugins = std::move(strategies);
  return found;
}

Acceptance PluginProbe::accepts(const PluginInfo& plugin, const CaseRequest& request) {
  Acceptance verdict;
  if (plugin.kernel) {
    verdict.accepted = kernel_accepts(*plugin.kernel, request, verdict.reason);
    return verdict;
  }
  if (!plugin.has_accepts) {
    verdict.accepted = true;
    return verdict;
  }
  if (const auto it = faulted_.find(plugin.file); it != faulted_.end()) {
    verdict.fault = it->second;
    return verdict;
  }
  // Asked of the probe that loaded this file alone: no other plugin's code runs there.
  auto probe = probe_of(plugin.file);
  const FileProbe::Answer answer = probe->ask("accepts", encode_case(request));
  keep(std::move(probe));
  std::string malformed = "probe protocol error: unexpected '" + answer.kind + "'";
  if (answer.kind == "verdict") {
    try {
      const AcceptsAnswer said = decode_accepts_answer(answer.fields);
      verdict.accepted = said.accepted;
      verdict.reason = said.why;
      return verdict;
    } catch (const ProtocolError& e) {
      malformed = std::string("probe protocol error: ") + e.what();
    }
  }
  if (answer.kind.empty()) {
    verdict.fault =
        CaseOutcome::without_run(answer.timed_out ? CaseStatus::timeout : CaseStatus::crashed,
                                 answer.failure + " while planning this case");
  } else {
    verdict.fault = CaseOutcome::without_run(
        CaseStatus::error, answer.kind == "refused"
                               ? "the probe could not load it again: " + refusal_of(answer.fields)
                               : malformed);
  }
  // Asked again, a crashing or hanging accepts() would cost the same for every later case.
  faulted_[plugin.file] = CaseOutcome::without_run(
      verdict.fault->status, answer.kind.empty() ? answer.failure +
                                                       " on an earlier case of this plugin; "
                                                       "not asked again"
                                                 : verdict.fault->message);
  return verdict;
}

PluginProbe::KernelBuild PluginProbe::build_kernel(const PluginInfo& kernel,
                                                   const std::vector<CaseRequest>& cases,
                                                   int device) {
  KernelBuild build;
  KernelFileRequest request = kernel_request_for(kernel, cases, device);
  if (kernel.referee) request.family_file = kernel.referee->file;
  FileProbe probe(executable_, kernel.file, timeout_ms_);
  const FileProbe::Answer answer = probe.ask("kernel", encode_kernel_request(request));
  if (answer.kind == "built") {
    try {
      KernelCheckAnswer said = decode_built(answer.fields, cases.size());
      build.built = true;
      build.summary = std::move(said.summary);
      build.unsupported = std::move(said.unsupported);
    } catch (const ProtocolError& e) {
      build.failure = std::string("probe protocol error: ") + e.what();
    }
    return build;
  }
  build.failure = answer.kind == "refused" ? refusal_of(answer.fields)
                  : answer.kind.empty()
                      ? "checking it, the probe process " + answer.failure
                      : "probe protocol error: unexpected '" + answer.kind + "'";
  return build;
}

}  // namespace kb
