// The version 2 author API, kept for plugins written against it (include it by name: plugin.hpp
// does not): from C++ to the C ABI of a self-refereed plugin, a family's problem type and a
// strategy become a KernelPlugin whose hooks catch every exception and return it as a status and
// a message. Version 3 strategies use kbench/support/strategy.hpp instead.
//
// A family provides `template <typename T> class Problem` with
//     Problem(const kb_case&, kb_device_kind, kb_work&);   // allocate, fill, count the work
//     void poison(cudaStream_t);
//     kb_verification verify();
// A strategy is `template <typename T> struct S` with
//     void launch(const Problem<T>&, kb::Launcher&);        // may be static
// and, when it needs state of its own (a library handle, scratch space), a constructor taking
// `const Problem<T>&` — or `(const Problem<T>&, const kb::Params&)` when it has parameters
// (Metadata::params), whose values for the case it then reads; and, when the family's check must know something only the strategy knows
// (the precision it computes in), `kb_verification verify(const Problem<T>&)`, which then replaces
// Problem::verify. The data type of the case picks T: float, double, std::int32_t, __half,
// __nv_bfloat16, std::int8_t, or kb::NoData for families without data; the plugin names the ones it supports as a kb::DTypes list,
// so only those are instantiated (a cuBLAS strategy has no int32 version to compile).
#pragma once

#include <kbench/plugin.h>
#include <kbench/support/error.hpp>
#include <kbench/support/launch.hpp>
#include <kbench/support/metadata.hpp>
#include <kbench/support/params.hpp>

#include <cuda_runtime_api.h>

#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

namespace kb {

namespace detail {

class CaseState {
 public:
  virtual ~CaseState() = default;
  virtual void poison(cudaStream_t stream) = 0;
  virtual void launch(Launcher& launcher) = 0;
  virtual kb_verification verify() = 0;
};

template <template <typename> class Problem, template <typename> class Strategy, typename T>
class BoundCase final : public CaseState {
 public:
  BoundCase(const kb_case& c, kb_device_kind where, kb_work& work)
      : problem_(c, where, work), strategy_(make_strategy(Params(c.params))) {}

  void poison(cudaStream_t stream) override { problem_.poison(stream); }
  void launch(Launcher& launcher) override { strategy_.launch(problem_, launcher); }
  kb_verification verify() override {
    if constexpr (has_own_verify<Strategy<T>>(0)) {
      return strategy_.verify(problem_);
    } else {
      return problem_.verify();
    }
  }

 private:
  template <typename S>
  static constexpr auto has_own_verify(int)
      -> decltype(std::declval<S&>().verify(std::declval<const Problem<T>&>()), true) {
    return true;
  }
  template <typename S>
  static constexpr bool has_own_verify(...) {
    return false;
  }

  Strategy<T> make_strategy(const Params& params) {
    if constexpr (std::is_constructible_v<Strategy<T>, const Problem<T>&, const Params&>) {
      return Strategy<T>(problem_, params);
    } else if constexpr (std::is_constructible_v<Strategy<T>, const Problem<T>&>) {
      return Strategy<T>(problem_);
    } else {
      return Strategy<T>();
    }
  }

  Problem<T> problem_;
  Strategy<T> strategy_;
};

template <template <typename> class Problem, template <typename> class Strategy, typename Types>
struct Hooks;

template <template <typename> class Problem, template <typename> class Strategy, typename... T>
struct Hooks<Problem, Strategy, DTypes<T...>> {
  static inline kb_device_kind device = KB_DEVICE_CUDA;

  static CaseState* create(const kb_case& c, kb_work& work) {
    CaseState* state = nullptr;
    ((c.dtype == dtype_of<T>() ? (state = new BoundCase<Problem, Strategy, T>(c, device, work),
                                  true)
                               : false) ||
     ...);
    if (state == nullptr) throw Error(KB_UNSUPPORTED, "data type not supported by this plugin");
    return state;
  }

  static kb_status setup(const kb_case* c, void** state, kb_work* work, kb_message* message) {
    *state = nullptr;
    return guarded(message, [&] { *state = create(*c, *work); });
  }
  static kb_status poison(void* state, void* stream, kb_message* message) {
    return guarded(message, [&] {
      static_cast<CaseState*>(state)->poison(static_cast<cudaStream_t>(stream));
    });
  }
  static kb_status launch(void* state, void* stream, kb_launch_config* config,
                          kb_message* message) {
    return guarded(message, [&] {
      *config = kb_launch_config{};
      Launcher launcher(static_cast<cudaStream_t>(stream), *config);
      static_cast<CaseState*>(state)->launch(launcher);
    });
  }
  static kb_status verify(void* state, kb_verification* result, kb_message* message) {
    const kb_status status = guarded(message, [&] {
      try {
        *result = static_cast<CaseState*>(state)->verify();
      } catch (const VerifyFailure& failure) {
        *result = failure.result();
        throw;
      }
    });
    if (status == KB_OK && !result->passed) return KB_VERIFY_FAILED;
    return status;
  }
  static void teardown(void* state) { delete static_cast<CaseState*>(state); }
};

}  // namespace detail

// The family is the part of the name before '/'. `name` must be a string literal or otherwise
// outlive the library.
template <template <typename> class Problem, template <typename> class Strategy, typename Types>
KernelPlugin make_plugin(const Metadata& m) {
  using H = detail::Hooks<Problem, Strategy, Types>;
  H::device = m.device;
  KernelPlugin p{};
  // A plugin of this adapter is its own referee: ABI version 2 (see plugin.h).
  p.abi_version = 2;
  p.struct_size = sizeof(KernelPlugin);
  p.name = m.name;
  p.family = detail::family_of_name(m.name);
  p.version = m.version;
  p.description = m.description;
  p.device = m.device;
  p.dtypes = dtype_mask(Types{});
  p.flags = m.flags;
  p.ops = m.ops;
  p.cuda_archs = m.device == KB_DEVICE_CUDA ? KB_CUDA_ARCHS : "";
  p.accepts = m.accepts;
  p.setup = &H::setup;
  p.poison = &H::poison;
  p.launch = &H::launch;
  p.verify = &H::verify;
  p.teardown = &H::teardown;
  p.family_info = detail::family_of<Problem<typename detail::FirstType<Types>::type>>(0);
  p.params = m.params.list;
  p.param_count = m.params.count;
  return p;
}

}  // namespace kb

// Defines the exported entry point. Use once per plugin:
//   KBENCH_PLUGIN(kb::transpose::Problem, NaiveRow, kb::AllDTypes, {"transpose/naive_row", ...})
#define KBENCH_PLUGIN(PROBLEM, STRATEGY, DTYPES, ...)                                  \
  extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {                       \
    static const KernelPlugin plugin = ::kb::make_plugin<PROBLEM, STRATEGY, DTYPES>(   \
        ::kb::Metadata __VA_ARGS__);                                                   \
    return &plugin;                                                                    \
  }
