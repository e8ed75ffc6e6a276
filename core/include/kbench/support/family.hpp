// From a C++ referee to a KernelFamily (ABI version 3): the family owns each case's buffers, draws
// the inputs, counts the work and checks the outputs; every exception becomes a status and a
// message.
//
// A family provides `template <typename T> class Referee` with
//     static kb_work work(const kb_case&);                       // from the case alone
//     Referee(const kb_case&, kb_device_kind where);             // allocate
//     kb_buffers buffers() const;                                // what strategies compute on
//     void draw(std::uint64_t seed, std::uint32_t purpose, cudaStream_t);
//     void poison(cudaStream_t);
//     kb_verification check(std::uint32_t strategy_flags, cudaStream_t);
// and lists the data types it referees as a kb::DTypes.
#pragma once

#include <kbench/support/metadata.hpp>
#include <kbench/support/array.hpp>

namespace kb {

// A family library's description, written as Metadata is: {.info = ..., .version = "1"}.
struct FamilyMetadata {
  const kb_family* info;
  const char* version;
  const char* ops = "";
  int (*accepts)(const kb_case*, kb_message*) = nullptr;
};

// An operand of kb_buffers from an Array; `dtype` for elements no kb_dtype names (KB_DTYPE_NONE
// for hello's records).
template <typename T>
kb_operand operand_of(const Array<T>& array) {
  return kb_operand{const_cast<T*>(array.data()), array.size(), array.bytes(), dtype_of<T>()};
}
template <typename T>
kb_operand operand_of(const Array<T>& array, kb_dtype dtype) {
  return kb_operand{const_cast<T*>(array.data()), array.size(), array.bytes(), dtype};
}

namespace detail {

class RefereeBase {
 public:
  virtual ~RefereeBase() = default;
  virtual kb_buffers buffers() const = 0;
  virtual void draw(std::uint64_t seed, std::uint32_t purpose, cudaStream_t stream) = 0;
  virtual void poison(cudaStream_t stream) = 0;
  virtual kb_verification check(std::uint32_t strategy_flags, cudaStream_t stream) = 0;
};

template <template <typename> class Referee, typename T>
class BoundReferee final : public RefereeBase {
 public:
  BoundReferee(const kb_case& c, kb_device_kind where) : referee_(c, where) {}
  kb_buffers buffers() const override { return referee_.buffers(); }
  void draw(std::uint64_t seed, std::uint32_t purpose, cudaStream_t stream) override {
    referee_.draw(seed, purpose, stream);
  }
  void poison(cudaStream_t stream) override { referee_.poison(stream); }
  kb_verification check(std::uint32_t flags, cudaStream_t stream) override {
    return referee_.check(flags, stream);
  }

 private:
  Referee<T> referee_;
};

template <template <typename> class Referee, typename Types>
struct FamilyHooks;

template <template <typename> class Referee, typename... T>
struct FamilyHooks<Referee, DTypes<T...>> {
  static kb_status work(const kb_case* c, kb_work* work, kb_message* message) {
    return guarded(message, [&] {
      bool known = false;
      ((c->dtype == dtype_of<T>() ? (*work = Referee<T>::work(*c), known = true) : false) || ...);
      if (!known) throw Error(KB_UNSUPPORTED, "data type not defined by this family");
    });
  }
  static kb_status create(const kb_case* c, kb_device_kind where, void** state,
                          kb_buffers* buffers, kb_message* message) {
    *state = nullptr;
    return guarded(message, [&] {
      RefereeBase* bound = nullptr;
      ((c->dtype == dtype_of<T>() ? (bound = new BoundReferee<Referee, T>(*c, where), true)
                                  : false) ||
       ...);
      if (bound == nullptr) throw Error(KB_UNSUPPORTED, "data type not defined by this family");
      *buffers = bound->buffers();
      *state = bound;
    });
  }
  static kb_status draw(void* state, std::uint64_t seed, std::uint32_t purpose, void* stream,
                        kb_message* message) {
    return guarded(message, [&] {
      static_cast<RefereeBase*>(state)->draw(seed, purpose, static_cast<cudaStream_t>(stream));
    });
  }
  static kb_status poison(void* state, void* stream, kb_message* message) {
    return guarded(message, [&] {
      static_cast<RefereeBase*>(state)->poison(static_cast<cudaStream_t>(stream));
    });
  }
  static kb_status check(void* state, std::uint32_t flags, void* stream, kb_verification* result,
                         kb_message* message) {
    const kb_status status = guarded(message, [&] {
      *result = static_cast<RefereeBase*>(state)->check(flags, static_cast<cudaStream_t>(stream));
    });
    if (status == KB_OK && !result->passed) return KB_VERIFY_FAILED;
    return status;
  }
  static void destroy(void* state) { delete static_cast<RefereeBase*>(state); }
};

}  // namespace detail

template <template <typename> class Referee, typename Types>
KernelFamily make_family(const FamilyMetadata& m) {
  using H = detail::FamilyHooks<Referee, Types>;
  KernelFamily f{};
  f.abi_version = KB_ABI_VERSION;
  f.struct_size = sizeof(KernelFamily);
  f.info = m.info;
  f.version = m.version;
  f.dtypes = dtype_mask(Types{});
  f.ops = m.ops;
  f.accepts = m.accepts;
  f.work = &H::work;
  f.create = &H::create;
  f.draw = &H::draw;
  f.poison = &H::poison;
  f.check = &H::check;
  f.destroy = &H::destroy;
  return f;
}

}  // namespace kb

// Defines the exported entry point of a family's library. Use once per family:
//   KBENCH_FAMILY(kb::transpose::Referee, kb::EveryDType,
//                 {.info = kb::transpose::descriptor(), .version = "3"})
#define KBENCH_FAMILY(REFEREE, DTYPES, ...)                                                  \
  extern "C" KB_EXPORT const KernelFamily* kbench_family(void) {                             \
    static const KernelFamily family =                                                       \
        ::kb::make_family<REFEREE, DTYPES>(::kb::FamilyMetadata __VA_ARGS__);                \
    return &family;                                                                          \
  }
