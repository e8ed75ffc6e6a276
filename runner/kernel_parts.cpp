#include "kernel_parts.hpp"

#include "kernel/code_cache.hpp"
#include "plugin/kernel_manifest.hpp"
#include "protocol/child_answers.hpp"
#include "protocol/codec.hpp"
#include "protocol/kernel_request.hpp"
#include "protocol/worker_process.hpp"
#include "util/input_error.hpp"

#include <boost/filesystem/operations.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>

namespace kb {
namespace {

// How long the compile step may go without a word (each variant built is one) before it is
// taken for hung.
constexpr int kCompileSilenceMs = 600 * 1000;

// A kernel file's variants for `cases` built by `kbench compile` (a child that runs no plugin
// code), loaded on `device` where there is one, each case's launch formed. The build, as the
// probe's answer to it would be.
PluginProbe::KernelBuild compile_in_child(const PluginInfo& kernel,
                                          const std::vector<CaseRequest>& cases, int device) {
  PluginProbe::KernelBuild build;
  KernelFileRequest request = kernel_request_for(kernel, cases, device);
  if (kernel.referee) request.family = *kernel.referee;
  WorkerProcess child({executable_path(), "compile"});
  std::string kind, step = "starting";
  Record answer;
  if (child.send("kernel", encode_kernel_request(request))) {
    while (true) {
      const auto status = child.receive(kind, answer, kCompileSilenceMs);
      try {
        if (status == WorkerProcess::Received::record && kind == "step") {
          step = decode_step(answer);
          continue;
        }
        if (status == WorkerProcess::Received::record && kind == "built") {
          KernelCheckAnswer said = decode_built(answer, cases.size());
          build.built = true;
          build.summary = std::move(said.summary);
          build.unsupported = std::move(said.unsupported);
          return build;
        }
        if (status == WorkerProcess::Received::record && kind == "refused") {
          build.failure = decode_reason(answer);
          return build;
        }
      } catch (const ProtocolError& e) {
        child.kill();
        build.failure = kernel.file + ": compiling it, kbench compile answered out of protocol (" +
                        e.what() + ")";
        return build;
      }
      if (status == WorkerProcess::Received::timeout) {
        child.kill();
        build.failure = kernel.file + ": compiling it, kbench compile said nothing for " +
                        std::to_string(kCompileSilenceMs / 1000) + " s (" + step + ")";
        return build;
      }
      break;
    }
  }
  build.failure = kernel.file + ": compiling it, kbench compile " + child.finish() + " (" + step + ")";
  return build;
}

}  // namespace

std::vector<std::shared_ptr<const PluginInfo>> load_kernel_parts(
    const std::vector<std::string>& files,
    const std::vector<std::shared_ptr<const PluginInfo>>& families,
    const std::vector<std::shared_ptr<const PluginInfo>>& plugins) {
  std::vector<std::shared_ptr<const PluginInfo>> parts;
  for (const auto& file : files) {
    // Each strategy of the file's manifest (one, or its "strategies").
    for (auto& read : read_kernel_manifests(file)) {
      auto manifest = std::make_shared<KernelManifest>(std::move(read));
      const auto family = std::find_if(families.begin(), families.end(),
                                       [&](const auto& f) { return f->name == manifest->family; });
      if (family == families.end()) {
        std::string known;
        for (const auto& f : families) known += (known.empty() ? "" : ", ") + f->name;
        throw InputError(file + ": unknown family '" + manifest->family + "' (no library of it is "
                         "loaded; families here: " + (known.empty() ? "none" : known) + ")");
      }
      bind_to_family(*manifest, **family);
      const std::string name = manifest->name;
      for (const auto& other : plugins) {
        if (other->name == name) {
          throw InputError(file + ": its name '" + name + "' is taken by " + other->file +
                           "; give it another (\"name\" in its manifest)");
        }
      }
      for (const auto& other : parts) {
        if (other->name == name) {
          throw InputError(file + ": its name '" + name + "' is taken by the kernel file " +
                           other->file + "; give it another (\"name\" in its manifest)");
        }
      }
      parts.push_back(std::make_shared<const PluginInfo>(kernel_part(std::move(manifest), *family)));
    }
  }
  return parts;
}

void prepare_kernel_cache(const std::vector<std::string>& kernel_files) {
  if (kernel_files.empty() || make_kernel_cache_dir().empty()) return;
  // No cache folder can be made (no HOME, a read-only one): a folder of this run's own, which
  // the compile step fills and the workers read, removed when kbench ends.
  static boost::filesystem::path own;
  boost::system::error_code error;
  own = boost::filesystem::temp_directory_path(error) /
        boost::filesystem::unique_path("kbench-kernels-%%%%-%%%%-%%%%");
  if (error || !boost::filesystem::create_directories(own, error)) return;
  ::setenv("KBENCH_CACHE_DIR", own.c_str(), 1);
  std::atexit([] {
    boost::system::error_code ignored;
    boost::filesystem::remove_all(own, ignored);
  });
}

void check_planned_kernels(PluginProbe& probe, Plan& plan) {
  // Each kernel file's cases to run, per device.
  std::map<std::pair<const PluginInfo*, int>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < plan.cases.size(); ++i) {
    const PlannedCase& c = plan.cases[i];
    if (c.plugin->kind != PartKind::kernel || c.outcome) continue;
    groups[{c.plugin.get(), c.request.device}].push_back(i);
  }
  for (const auto& [key, indices] : groups) {
    std::vector<CaseRequest> cases;
    for (std::size_t i : indices) cases.push_back(plan.cases[i].request);
    // The family's word on the manifest's operands (its library, in the probe), then the code,
    // built where no plugin code runs.
    const auto family = probe.build_kernel(*key.first, cases, key.second);
    if (!family.built) throw InputError(family.failure);
    const auto build = compile_in_child(*key.first, cases, key.second);
    if (!build.built) throw InputError(build.failure);
    std::cerr << "kbench: " << build.summary << "\n";
    for (const auto& [index, reason] : build.unsupported) {
      plan.cases[indices[index]].outcome = CaseOutcome::without_run(CaseStatus::unsupported, reason);
    }
  }
}

void check_kernels_without_device(PluginProbe& probe,
                                  const std::vector<std::shared_ptr<const PluginInfo>>& kernels,
                                  const SweepRequest& sweep, const FamilyTable& families) {
  if (kernels.empty()) return;
  SweepRequest request = sweep;
  request.devices = {-1};
  Plan plan = plan_sweep(kernels, request, families, probe);
  check_planned_kernels(probe, plan);
}

}  // namespace kb
