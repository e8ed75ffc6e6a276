// What every C++ plugin author's helper shares: the data types a plugin names (kb::DTypes), its
// description (kb::Metadata, kb::ParamList) and the guard that turns an exception into a status at
// the ABI's edge. Version 3 strategies build on it in strategy.hpp, referees in family.hpp, and
// version 2 plugins in adapter.hpp.
#pragma once

#include <kbench/plugin.h>
#include <kbench/support/error.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cstdio>
#include <new>
#include <string>
#include <type_traits>

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

// A strategy's description, written with designated initialisers in this order (C++20's, which
// GCC, Clang and nvcc take in C++17 too; -Wpedantic names them): a field left out keeps its
// default.
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


}  // namespace kb
