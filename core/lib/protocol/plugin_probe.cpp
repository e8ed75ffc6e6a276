#include "protocol/plugin_probe.hpp"

#include "case/case_spec.hpp"
#include "plugin/kernel_manifest.hpp"
#include "util/number_text.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace kb {
namespace {

std::string field(const Record& record, const char* key) {
  const auto it = record.find(key);
  return it == record.end() ? "" : it->second;
}

}  // namespace

PluginProbe::PluginProbe(std::string executable, double timeout_seconds)
    : executable_(std::move(executable)), timeout_ms_(static_cast<int>(timeout_seconds * 1000)) {}

PluginProbe::Answer PluginProbe::ask(const std::string& kind, const Record& fields) {
  // A probe that served other files before may die of one of them (a thread a plugin left
  // behind): the question is asked once more of a fresh probe before this file is blamed.
  const bool fresh = !child_;
  Answer answer = ask_once(kind, fields);
  if (answer.kind.empty() && !answer.timed_out && !fresh) answer = ask_once(kind, fields);
  return answer;
}

PluginProbe::Answer PluginProbe::ask_once(const std::string& kind, const Record& fields) {
  Answer answer;
  // A probe kbench cannot start (no descriptors or processes left) is kbench's trouble: the
  // runtime_error ends the command instead of being blamed on the file.
  if (!child_) child_ = std::make_unique<WorkerProcess>(std::vector<std::string>{executable_, "probe"});
  // The step the probe last said it entered names where it died.
  std::string step = kind == "accepts" ? "accepts()"
                     : kind == "kernel" ? "checking the kernel file"
                                        : "loading";
  if (child_->send(kind, fields)) {
    while (true) {
      const auto status = child_->receive(answer.kind, answer.fields, timeout_ms_);
      using Received = WorkerProcess::Received;
      if (status == Received::record && answer.kind == "step") {
        step = answer.fields["name"];
        continue;
      }
      // kbench ran short (descriptors, memory) while loading: no file is to blame.
      if (status == Received::record && answer.kind == "short") {
        throw std::runtime_error(field(answer.fields, "reason"));
      }
      if (status == Received::record) return answer;
      if (status == Received::out_of_step) {
        // The plugin's code wrote on the probe's channel: nothing more it says can be trusted.
        answer.failure = step + " wrote on kbench's answer channel ('" + answer.kind + "')";
        child_.reset();  // kills it
        answer.kind.clear();
        return answer;
      }
      if (status == Received::timeout) {
        answer.timed_out = true;
        answer.failure = step + " gave no answer within " +
                         significant_text(timeout_ms_ / 1000.0) + " s; its process was killed";
        child_.reset();  // kills it
        answer.kind.clear();
        return answer;
      }
      break;
    }
  }
  answer.kind.clear();
  answer.failure = step + " " + child_->finish();
  child_.reset();
  return answer;
}

std::shared_ptr<const PluginInfo> PluginProbe::load(const std::string& file, std::string& failure) {
  const Answer answer = ask("load", {{"file", file}});
  if (answer.kind == "plugin") {
    try {
      return std::make_shared<const PluginInfo>(decode_plugin(answer.fields));
    } catch (const std::exception&) {
      failure = "probe protocol error: incomplete plugin record";
      return nullptr;
    }
  }
  failure = answer.kind == "refused" ? field(answer.fields, "reason")
            : answer.kind.empty()    ? answer.failure
                                     : "probe protocol error: unexpected '" + answer.kind + "'";
  return nullptr;
}

Discovery PluginProbe::discover(const std::vector<std::string>& dirs) {
  Discovery found;
  std::map<std::string, std::string> file_of_name;
  for (const auto& file : plugin_files(dirs, found.failures)) {
    std::string failure;
    auto plugin = load(file, failure);
    if (!plugin) {
      found.failures.push_back({file, failure});
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
  Record fields = encode_case(request);
  fields["file"] = plugin.file;
  const Answer answer = ask("accepts", fields);
  if (answer.kind == "verdict") {
    verdict.accepted = field(answer.fields, "accepted") == "1";
    verdict.reason = field(answer.fields, "why");
    return verdict;
  }
  if (answer.kind.empty()) {
    verdict.fault =
        CaseOutcome::without_run(answer.timed_out ? CaseStatus::timeout : CaseStatus::crashed,
                                 answer.failure + " while planning this case");
  } else {
    verdict.fault = CaseOutcome::without_run(
        CaseStatus::error, answer.kind == "refused"
                               ? "the probe could not load it again: " +
                                     field(answer.fields, "reason")
                               : "probe protocol error: unexpected '" + answer.kind + "'");
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
  std::string lines;
  for (const auto& c : cases) lines += encode_record("case", encode_case(c));
  Record fields{{"file", kernel.file},
                {"sha256", kernel.kernel ? kernel.kernel->sha256 : ""},
                {"device", std::to_string(device)},
                {"cases", lines}};
  if (kernel.referee) fields["family-file"] = kernel.referee->file;
  const Answer answer = ask("kernel", fields);
  if (answer.kind == "built") {
    build.built = true;
    build.summary = field(answer.fields, "summary");
    for (const auto& [key, reason] : answer.fields) {
      if (key.rfind("unsupported.", 0) != 0) continue;
      if (const auto index = parse_unsigned(key.substr(12)); index && *index < cases.size()) {
        build.unsupported[static_cast<std::size_t>(*index)] = reason;
      }
    }
    return build;
  }
  build.failure = answer.kind == "refused" ? field(answer.fields, "reason")
                  : answer.kind.empty()
                      ? "checking it, the probe process " + answer.failure
                      : "probe protocol error: unexpected '" + answer.kind + "'";
  return build;
}

}  // namespace kb
