// From a C++ strategy to a version 3 KernelPlugin: the family's buffers, seen through the family's
// view type, handed to the strategy's launch; every exception turned into a status and a message.
//
// A family provides `template <typename T> class Operands`, a view of the case's buffers built
// with `Operands(const kb_case&, const kb_buffers&)` (transpose: in(), out(), rows, cols, block).
// A strategy is `template <typename T> struct S` with
//     void launch(const Operands<T>&, kb::Launcher&);        // may be static
// and, when it keeps state of its own (a library handle, scratch space), a constructor taking
// `const Operands<T>&` — or `(const Operands<T>&, const kb::Params&)` when it has parameters
// (Metadata::params). The constructor runs in prepare: it may allocate and plan, never compute
// results (the inputs are redrawn after it). The data type of the case picks T, among the types
// the plugin lists as a kb::DTypes.
#pragma once

#include <kbench/plugin.h>
#include <kbench/support/launch.hpp>
#include <kbench/support/metadata.hpp>
#include <kbench/support/params.hpp>

#include <cuda_runtime_api.h>

#include <type_traits>

namespace kb {
namespace detail {

class BoundStrategyBase {
 public:
  virtual ~BoundStrategyBase() = default;
  virtual void launch(Launcher& launcher) = 0;
};

template <template <typename> class Operands, template <typename> class Strategy, typename T>
class BoundStrategy final : public BoundStrategyBase {
 public:
  BoundStrategy(const kb_case& c, const kb_buffers& buffers)
      : operands_(c, buffers), strategy_(make_strategy(Params(c.params))) {}

  void launch(Launcher& launcher) override { strategy_.launch(operands_, launcher); }

 private:
  Strategy<T> make_strategy(const Params& params) {
    if constexpr (std::is_constructible_v<Strategy<T>, const Operands<T>&, const Params&>) {
      return Strategy<T>(operands_, params);
    } else if constexpr (std::is_constructible_v<Strategy<T>, const Operands<T>&>) {
      return Strategy<T>(operands_);
    } else {
      return Strategy<T>();
    }
  }

  Operands<T> operands_;
  Strategy<T> strategy_;
};

template <template <typename> class Operands, template <typename> class Strategy, typename Types>
struct StrategyHooks;

template <template <typename> class Operands, template <typename> class Strategy, typename... T>
struct StrategyHooks<Operands, Strategy, DTypes<T...>> {
  static kb_status prepare(const kb_case* c, const kb_buffers* buffers, void** state,
                           kb_message* message) {
    *state = nullptr;
    return guarded(message, [&] {
      BoundStrategyBase* bound = nullptr;
      ((c->dtype == dtype_of<T>()
            ? (bound = new BoundStrategy<Operands, Strategy, T>(*c, *buffers), true)
            : false) ||
       ...);
      if (bound == nullptr) throw Error(KB_UNSUPPORTED, "data type not supported by this plugin");
      *state = bound;
    });
  }
  static kb_status run(void* state, const kb_case*, const kb_buffers*, void* stream,
                       kb_launch_config* config, kb_message* message) {
    return guarded(message, [&] {
      *config = kb_launch_config{};
      Launcher launcher(static_cast<cudaStream_t>(stream), *config);
      static_cast<BoundStrategyBase*>(state)->launch(launcher);
    });
  }
  static void release(void* state) { delete static_cast<BoundStrategyBase*>(state); }
};

}  // namespace detail

template <template <typename> class Operands, template <typename> class Strategy, typename Types>
KernelPlugin make_strategy_plugin(const Metadata& m) {
  using H = detail::StrategyHooks<Operands, Strategy, Types>;
  KernelPlugin p{};
  p.abi_version = KB_ABI_VERSION;
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
  p.params = m.params.list;
  p.param_count = m.params.count;
  p.prepare = &H::prepare;
  p.run = &H::run;
  p.release = &H::release;
  return p;
}

}  // namespace kb

// Defines the exported entry point of a version 3 strategy. Use once per plugin:
//   KBENCH_STRATEGY(kb::transpose::Operands, NaiveRow, kb::AllDTypes,
//                   {.name = "transpose/naive_row", .version = "1", ..., .device = KB_DEVICE_CUDA})
#define KBENCH_STRATEGY(OPERANDS, STRATEGY, DTYPES, ...)                                     \
  extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {                             \
    static const KernelPlugin plugin = ::kb::make_strategy_plugin<OPERANDS, STRATEGY, DTYPES>( \
        ::kb::Metadata __VA_ARGS__);                                                         \
    return &plugin;                                                                          \
  }
