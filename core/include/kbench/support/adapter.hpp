// From C++ to the C ABI of a version 2 (self-refereed) plugin: a family's problem type and a
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
#include <kbench/support/params.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

namespace kb {

struct NoData {};

template <typename... T>
struct DTypes {};
using AllDTypes = DTypes<float, double, std::int32_t>;
using FloatDTypes = DTypes<float, double>;
using HalfDTypes = DTypes<__half, __nv_bfloat16>;
// Every data type of the ABI, for plugins that only move bits (a copy, a transpose).
using EveryDType = DTypes<float, double, std::int32_t, __half, __nv_bfloat16, std::int8_t>;
using NoDTypes = DTypes<NoData>;

template <typename T>
constexpr kb_dtype dtype_of() {
  if constexpr (std::is_same_v<T, float>) return KB_DTYPE_F32;
  else if constexpr (std::is_same_v<T, double>) return KB_DTYPE_F64;
  else if constexpr (std::is_same_v<T, std::int32_t>) return KB_DTYPE_I32;
  else if constexpr (std::is_same_v<T, __half>) return KB_DTYPE_F16;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return KB_DTYPE_BF16;
  else if constexpr (std::is_same_v<T, std::int8_t>) return KB_DTYPE_I8;
  else if constexpr (std::is_same_v<T, std::int64_t>) return KB_DTYPE_I64;
  else {
    static_assert(std::is_same_v<T, NoData>, "data types are float, double, std::int32_t, "
                                             "__half, __nv_bfloat16, std::int8_t, NoData");
    return KB_DTYPE_NONE;
  }
}

template <typename... T>
constexpr std::uint32_t dtype_mask(DTypes<T...>) {
  return (0u | ... | static_cast<std::uint32_t>(dtype_of<T>()));
}

// A plugin's knobs (kb_param), from an array that outlives the library: `kb::ParamList(kParams)`.
struct ParamList {
  const kb_param* list = nullptr;
  std::uint32_t count = 0;
  constexpr ParamList() = default;
  template <std::size_t N>
  constexpr ParamList(const kb_param (&params)[N]) : list(params), count(N) {}
};

struct Metadata {
  const char* name;
  const char* version;
  const char* description;
  kb_device_kind device;
  std::uint32_t flags = 0;
  const char* ops = "";
  int (*accepts)(const kb_case*, kb_message*) = nullptr;
  ParamList params = {};
};

namespace detail {

// The family description a family header gives for its problem types (found by argument-dependent
// lookup: `const kb_family* family_descriptor(const void*)` in the family's namespace); null for a
// problem type of no described family.
template <typename P>
constexpr auto family_of(int) -> decltype(family_descriptor(static_cast<const P*>(nullptr))) {
  return family_descriptor(static_cast<const P*>(nullptr));
}
template <typename P>
constexpr const kb_family* family_of(...) {
  return nullptr;
}

// The part of a plugin's name before '/'. `name` must outlive the library (a string literal).
inline const char* family_of_name(const char* name) {
  static const std::string family = [&] {
    const std::string text = name;
    return text.substr(0, text.find('/'));
  }();
  return family.c_str();
}

template <typename Types>
struct FirstType;
template <typename T, typename... Rest>
struct FirstType<DTypes<T, Rest...>> {
  using type = T;
};

}  // namespace detail

inline void write_message(kb_message* message, const char* text) {
  if (message != nullptr) std::snprintf(message->text, sizeof message->text, "%s", text);
}

// Runs `body`, turning anything it throws into a status and a message.
template <typename Body>
kb_status guarded(kb_message* message, Body&& body) noexcept {
  try {
    body();
    return KB_OK;
  } catch (const Error& e) {
    write_message(message, e.what());
    return e.status();
  } catch (const std::bad_alloc&) {
    write_message(message, "host allocation failed (std::bad_alloc)");
    return KB_OOM;
  } catch (const std::exception& e) {
    write_message(message, (std::string("exception: ") + e.what()).c_str());
    return KB_ERROR;
  } catch (...) {
    write_message(message, "unknown exception");
    return KB_ERROR;
  }
}

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
