#include "kernel/kernel_strategy.hpp"

#include "case/case_spec.hpp"
#include "kernel/result_copy.hpp"
#include "util/input_error.hpp"
#include "util/number_text.hpp"
#include "util/seconds_since.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>

namespace kb {
namespace {

KernelFileStrategy* g_strategy = nullptr;

void say(kb_message* message, const std::string& text) {
  if (message == nullptr) return;
  std::snprintf(message->text, sizeof message->text, "%s", text.c_str());
}

std::string cuda_text(cudaError_t error) {
  return std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
}

std::string variant_text(const CaseRequest& r) {
  std::string text = dtype_name(r.dtype);
  if (!r.op.empty()) text += " " + r.op;
  if (!r.params.empty()) text += " " + r.params;
  return text;
}

std::string dims_text(const std::array<std::uint32_t, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

}  // namespace

CaseRequest request_of(const kb_case& c) {
  CaseRequest r;
  r.dtype = c.dtype;
  r.op = c.op != nullptr ? c.op : "";
  r.shape.rank = c.rank;
  for (int i = 0; i < 3; ++i) {
    r.shape.dims[i] = c.shape[i];
    r.block.dims[i] = c.block[i];
  }
  r.device = c.device;
  r.params = c.params != nullptr ? c.params : "";
  return r;
}

struct KernelFileStrategy::Variant {
  std::unique_ptr<BuiltKernel> built;
  std::unique_ptr<LoadedKernel> loaded;
  std::string error;
};

// One launch of a case, ready to go.
struct LaunchState {
  const void* function = nullptr;
  KernelLaunch launch;
  std::vector<std::array<unsigned char, 8>> slots;
  std::vector<void*> args;
};

// A result the launches leave in a buffer of the strategy's, copied into the family's output.
struct ResultCopy {
  const void* from = nullptr;
  kb_dtype from_type = KB_DTYPE_NONE;
  void* to = nullptr;
  kb_dtype to_type = KB_DTYPE_NONE;
  std::uint64_t count = 0;
};

struct KernelFileStrategy::CaseState {
  std::vector<LaunchState> launches;
  std::vector<void*> scratch;
  std::vector<std::pair<void*, std::size_t>> zero_each_launch;
  std::vector<ResultCopy> results;
  ~CaseState() {
    for (void* p : scratch) cudaFree(p);
  }
};

KernelFileStrategy::KernelFileStrategy(std::shared_ptr<const KernelManifest> manifest, int device,
                                       CodeCache cache)
    : manifest_(std::move(manifest)), device_(device), cache_(std::move(cache)),
      target_(build_target(device)) {
  const KernelManifest& m = *manifest_;
  if (cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
    cudaGetLastError();
    sms_ = 1;
  }
  for (const auto& op : m.ops) ops_ += (ops_.empty() ? "" : ",") + op;
  plugin_.abi_version = KB_ABI_VERSION;
  plugin_.struct_size = sizeof(KernelPlugin);
  plugin_.name = m.name.c_str();
  plugin_.family = m.family.c_str();
  plugin_.version = "";
  plugin_.description = m.description.c_str();
  plugin_.device = KB_DEVICE_CUDA;
  plugin_.dtypes = m.dtypes;
  plugin_.flags = m.flags;
  plugin_.ops = ops_.c_str();
  plugin_.cuda_archs = "";
  plugin_.prepare = &KernelFileStrategy::prepare;
  plugin_.run = &KernelFileStrategy::run;
  plugin_.release = &KernelFileStrategy::release;
  g_strategy = this;
}

KernelFileStrategy::~KernelFileStrategy() {
  if (g_strategy == this) g_strategy = nullptr;
}

KernelFileStrategy::Variant& KernelFileStrategy::variant(const CaseRequest& request) {
  const KernelVariant v = kernel_variant(*manifest_, request);
  auto& slot = variants_[v.key()];
  if (!slot) {
    slot = std::make_unique<Variant>();
    try {
      // Never a compiler here: the code the compile step built before the run, or the file's.
      slot->built = std::make_unique<BuiltKernel>(load_built_kernel(*manifest_, v, target_, cache_));
      slot->loaded = std::make_unique<LoadedKernel>(*manifest_, *slot->built);
    } catch (const KernelBuildError& e) {
      slot->error = e.what();
    }
  }
  return *slot;
}

std::string KernelFileStrategy::compiler(const CaseRequest& request) {
  const Variant& v = variant(request);
  if (!v.built) return "";
  std::string entries;
  for (const auto& e : v.built->entries) entries += (entries.empty() ? "" : ", ") + e;
  return v.built->compiler + ", entr" + (v.built->entries.size() == 1 ? "y " : "ies ") + entries;
}

namespace {

void store_argument(const KernelArg& a, const KernelLaunch::Value& value, void* pointer,
                    std::array<unsigned char, 8>& slot) {
  switch (a.type) {
    case ArgType::pointer: std::memcpy(slot.data(), &pointer, sizeof pointer); break;
    case ArgType::i32: {
      const auto x = static_cast<std::int32_t>(value.integer);
      std::memcpy(slot.data(), &x, sizeof x);
      break;
    }
    case ArgType::u32: {
      const auto x = static_cast<std::uint32_t>(value.integer);
      std::memcpy(slot.data(), &x, sizeof x);
      break;
    }
    case ArgType::i64:
    case ArgType::u64: std::memcpy(slot.data(), &value.integer, sizeof value.integer); break;
    case ArgType::f32: {
      const auto x = static_cast<float>(value.real);
      std::memcpy(slot.data(), &x, sizeof x);
      break;
    }
    case ArgType::f64: std::memcpy(slot.data(), &value.real, sizeof value.real); break;
  }
}

}  // namespace

kb_status KernelFileStrategy::prepare(const kb_case* c, const kb_buffers* buffers, void** state,
                                      kb_message* message) {
  KernelFileStrategy* self = g_strategy;
  if (self == nullptr || c == nullptr || buffers == nullptr) {
    say(message, "kernel file strategy not set up");
    return KB_ERROR;
  }
  const KernelManifest& m = *self->manifest_;
  const CaseRequest r = request_of(*c);
  Variant& v = self->variant(r);
  if (!v.error.empty()) {
    say(message, v.error);
    return KB_ERROR;
  }
  auto s = std::make_unique<CaseState>();
  std::vector<KernelLaunch> launches;
  try {
    launches = kernel_launches(m, r, self->sms_);
  } catch (const InputError& e) {
    say(message, e.what());
    return KB_UNSUPPORTED;
  }
  std::map<std::string, std::pair<void*, std::size_t>> named;  // scratch buffers by name
  for (std::size_t step = 0; step < launches.size(); ++step) {
    const KernelStep& spec = m.launches[step];
    const std::string prefix = launches.size() > 1 ? "launches[" + std::to_string(step) + "] " : "";
    LaunchState& l = s->launches.emplace_back();
    l.function = v.loaded->function(step);
    l.launch = launches[step];
    if (const std::string why =
            fit_shared_memory(*v.loaded, step, l.launch.shared_bytes, self->device_);
        !why.empty()) {
      say(message, prefix + why);
      return KB_ERROR;
    }
    l.slots.assign(spec.args.size(), {});
    for (std::size_t i = 0; i < spec.args.size(); ++i) {
      const KernelArg& a = spec.args[i];
      const KernelLaunch::Value& value = l.launch.values[i];
      void* pointer = nullptr;
      if (a.role == ArgRole::input || a.role == ArgRole::output) {
        const bool input = a.role == ArgRole::input;
        const std::uint32_t count = input ? buffers->input_count : buffers->output_count;
        if (static_cast<std::uint32_t>(a.index) >= count) {
          say(message, prefix + a.describe(i) + ": the " + m.family + " family gives " +
                           std::to_string(count) + (input ? " input" : " output") +
                           (count == 1 ? "" : "s"));
          return KB_ERROR;
        }
        const kb_operand& operand = input ? buffers->inputs[a.index] : buffers->outputs[a.index];
        pointer = operand.data;
        if (a.zero == ZeroWhen::each_launch) {
          s->zero_each_launch.emplace_back(pointer, static_cast<std::size_t>(operand.bytes));
        }
      } else if (a.role == ArgRole::scratch && a.shared) {
        pointer = named.at(a.name).first;
      } else if (a.role == ArgRole::scratch) {
        const kb_operand* result =
            a.result_of >= 0 && static_cast<std::uint32_t>(a.result_of) < buffers->output_count
                ? &buffers->outputs[a.result_of]
                : nullptr;
        if (a.result_of >= 0 && result == nullptr) {
          say(message, prefix + a.describe(i) + ": the " + m.family + " family has no output " +
                           std::to_string(a.result_of));
          return KB_ERROR;
        }
        const kb_dtype element = a.result_type != KB_DTYPE_NONE ? a.result_type : r.dtype;
        // An output of the kernel's own is sized in elements: given, or the family's count.
        const std::uint64_t bytes =
            a.sized_by_result ? result->count * dtype_bytes(element)
            : a.bytes_in_elements ? static_cast<std::uint64_t>(value.integer) * dtype_bytes(element)
                                  : static_cast<std::uint64_t>(value.integer);
        if (bytes > 0) {
          if (const cudaError_t e = cudaMalloc(&pointer, bytes); e != cudaSuccess) {
            cudaGetLastError();
            say(message, prefix + a.describe(i) + ": cudaMalloc of " + std::to_string(bytes) +
                             " bytes: " + cuda_text(e));
            return KB_OOM;
          }
          s->scratch.push_back(pointer);
          if (a.zero == ZeroWhen::once) cudaMemset(pointer, 0, bytes);
          if (a.zero == ZeroWhen::each_launch) s->zero_each_launch.emplace_back(pointer, bytes);
        }
        if (a.name != "scratch") named[a.name] = {pointer, bytes};
        if (result != nullptr) {
          if (!result_copy_allowed(element, result->dtype)) {
            say(message, prefix + a.describe(i) + ": its " + dtype_name(element) +
                             " result cannot become the family's " + dtype_name(result->dtype) +
                             " output (only the same type or a wider one of its kind)");
            return KB_ERROR;
          }
          const auto at = static_cast<std::uint64_t>(value.real);
          if ((at + result->count) * dtype_bytes(element) > bytes) {
            say(message, prefix + a.describe(i) + ": " + std::to_string(bytes) + " bytes hold no " +
                             std::to_string(result->count) + " results from element " +
                             std::to_string(at));
            return KB_ERROR;
          }
          s->results.push_back({static_cast<const char*>(pointer) + at * dtype_bytes(element),
                                element, result->data, result->dtype, result->count});
        }
      }
      store_argument(a, value, pointer, l.slots[i]);
    }
    for (auto& slot : l.slots) l.args.push_back(slot.data());
  }
  if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    say(message, "zeroing scratch: " + cuda_text(e));
    return KB_ERROR;
  }
  *state = s.release();
  return KB_OK;
}

kb_status KernelFileStrategy::run(void* state, const kb_case*, const kb_buffers*, void* stream,
                                  kb_launch_config* config, kb_message* message) {
  auto* s = static_cast<CaseState*>(state);
  const auto st = static_cast<cudaStream_t>(stream);
  for (const auto& [pointer, bytes] : s->zero_each_launch) {
    if (const cudaError_t e = cudaMemsetAsync(pointer, 0, bytes, st); e != cudaSuccess) {
      say(message, "cudaMemsetAsync: " + cuda_text(e));
      return KB_ERROR;
    }
  }
  for (std::size_t step = 0; step < s->launches.size(); ++step) {
    LaunchState& ls = s->launches[step];
    const KernelLaunch& l = ls.launch;
    cudaLaunchConfig_t launch{};
    launch.gridDim = dim3(l.grid[0], l.grid[1], l.grid[2]);
    launch.blockDim = dim3(l.block[0], l.block[1], l.block[2]);
    launch.dynamicSmemBytes = static_cast<std::size_t>(l.shared_bytes);
    launch.stream = st;
    cudaLaunchAttribute cluster[1];
    if (l.clustered) {
      cluster[0].id = cudaLaunchAttributeClusterDimension;
      cluster[0].val.clusterDim.x = l.cluster[0];
      cluster[0].val.clusterDim.y = l.cluster[1];
      cluster[0].val.clusterDim.z = l.cluster[2];
      launch.attrs = cluster;
      launch.numAttrs = 1;
    }
    if (const cudaError_t e = cudaLaunchKernelExC(&launch, ls.function, ls.args.data());
        e != cudaSuccess) {
      cudaGetLastError();
      say(message, std::string(s->launches.size() > 1 ? "launches[" + std::to_string(step) + "]: " : "") +
                       "cudaLaunchKernelExC: " + cuda_text(e) + " (grid " + dims_text(l.grid) +
                       ", block " + dims_text(l.block) + ", " + std::to_string(l.shared_bytes) +
                       " bytes of dynamic shared memory" +
                       (l.clustered ? ", cluster " + dims_text(l.cluster) : "") + ")");
      return KB_ERROR;
    }
  }
  std::uint32_t kernels = static_cast<std::uint32_t>(s->launches.size());
  for (const ResultCopy& copy : s->results) {
    if (const std::string why = copy_result(copy.from, copy.from_type, copy.to, copy.to_type,
                                            copy.count, st);
        !why.empty()) {
      say(message, why);
      return KB_ERROR;
    }
    if (copy.from_type != copy.to_type) ++kernels;
  }
  if (config != nullptr) {
    const KernelLaunch& first = s->launches.front().launch;
    for (int i = 0; i < 3; ++i) {
      config->grid[i] = first.grid[i];
      config->block[i] = first.block[i];
    }
    config->kernels = kernels;
  }
  return KB_OK;
}

void KernelFileStrategy::release(void* state) { delete static_cast<CaseState*>(state); }

KernelCheck check_kernel_file(const KernelManifest& m, const std::vector<CaseRequest>& cases,
                              int device, const CodeCache& cache,
                              const std::function<void(const std::string&)>& progress) {
  const BuildTarget target = build_target(device);
  // The distinct variants, each with the first case that needs it.
  std::vector<KernelVariant> variants;
  std::vector<std::size_t> first_case;
  std::map<std::string, std::size_t> index_of;
  std::vector<std::size_t> variant_of_case(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    KernelVariant v = kernel_variant(m, cases[i]);
    const auto [it, added] = index_of.emplace(v.key(), variants.size());
    if (added) {
      variants.push_back(std::move(v));
      first_case.push_back(i);
    }
    variant_of_case[i] = it->second;
  }
  std::vector<std::unique_ptr<BuiltKernel>> built(variants.size());
  std::vector<std::string> errors(variants.size());
  std::mutex said;
  std::atomic<std::size_t> next{0}, done{0};
  const auto start = SteadyClock::now();
  const auto work = [&] {
    for (std::size_t i; (i = next++) < variants.size();) {
      try {
        built[i] = std::make_unique<BuiltKernel>(build_kernel(m, variants[i], target, cache));
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
      const std::lock_guard<std::mutex> lock(said);
      if (progress) {
        progress("built " + std::to_string(++done) + " of " + std::to_string(variants.size()) +
                 " variants of " + m.name);
      }
    }
  };
  const std::size_t threads = std::min<std::size_t>(
      variants.size(), std::max(1u, std::min(16u, std::thread::hardware_concurrency())));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  const double seconds = seconds_since(start);
  for (std::size_t i = 0; i < variants.size(); ++i) {
    if (!errors[i].empty()) {
      throw KernelBuildError(errors[i] + " [" + variant_text(cases[first_case[i]]) + "]");
    }
  }
  std::vector<std::unique_ptr<LoadedKernel>> loaded(variants.size());
  int sms = 1;
  if (target.device) {
    if (const cudaError_t e = cudaSetDevice(device); e != cudaSuccess) {
      throw KernelBuildError("device " + std::to_string(device) + ": " + cuda_text(e));
    }
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    for (std::size_t i = 0; i < variants.size(); ++i) {
      try {
        compile_for_device(m, variants[i], target, cache, *built[i]);
        loaded[i] = std::make_unique<LoadedKernel>(m, *built[i]);
      } catch (const KernelBuildError& e) {
        throw KernelBuildError(std::string(e.what()) + " [" +
                               variant_text(cases[first_case[i]]) + "]");
      }
    }
  }
  KernelCheck check;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::vector<KernelLaunch> launches;
    try {
      launches = kernel_launches(m, cases[i], sms);
    } catch (const InputError& e) {
      check.unsupported[i] = e.what();
      continue;
    }
    for (std::size_t step = 0; step < launches.size(); ++step) {
      const KernelLaunch& launch = launches[step];
      std::string why;
      if (loaded[variant_of_case[i]]) {
        why = fit_shared_memory(*loaded[variant_of_case[i]], step, launch.shared_bytes, device);
      } else if (const std::uint64_t limit = arch_max_shared_bytes(target.arch);
                 limit > 0 && launch.shared_bytes > limit) {
        // No device to ask: the architecture's limit (the kernel's static bytes are the load's).
        why = "shared memory: " + std::to_string(launch.shared_bytes) +
              " dynamic bytes per block, above the " + std::to_string(limit) + " a block of " +
              target.arch + " may have";
      }
      if (!why.empty()) {
        throw KernelBuildError((launches.size() > 1 ? "launches[" + std::to_string(step) + "]: " : "") +
                               why + " [" + variant_text(cases[i]) + " " +
                               format_extent(cases[i].shape) + "]");
      }
    }
  }
  std::size_t compiled = 0, cached = 0;
  std::string cache_note;
  for (const auto& b : built) {
    if (cache_note.empty()) cache_note = b->cache_note;
    if (m.format == KernelFormat::source) (b->cached ? cached : compiled) += 1;
  }
  check.summary = m.name + ": " + std::to_string(variants.size()) + " variant" +
                  (variants.size() == 1 ? "" : "s");
  // nvcc makes machine code: for the build's architecture where there is no device.
  std::string built_arch = target.arch;
  if (!built.empty() && built.front()->compiler.rfind("nvcc", 0) == 0 &&
      built_arch.rfind("compute_", 0) == 0) {
    built_arch = "sm_" + built_arch.substr(8);
  }
  if (m.format == KernelFormat::source && !built.empty()) {
    check.summary += " (" + std::to_string(compiled) + " compiled, " + std::to_string(cached) +
                     " from the cache " + (cache.dir().empty() ? "(none)" : cache.dir()) + ") by " +
                     built.front()->compiler.substr(0, built.front()->compiler.find(' ')) + " in " +
                     fixed_text(seconds, 2) + " s on " + std::to_string(threads) + " thread" +
                     (threads == 1 ? "" : "s") + " for " + built_arch;
  }
  check.summary += target.device ? ", loaded on device " + std::to_string(device)
                                 : ", not loaded (no CUDA device)";
  if (!cache_note.empty()) check.summary += "; not cached: " + cache_note;
  return check;
}

}  // namespace kb
