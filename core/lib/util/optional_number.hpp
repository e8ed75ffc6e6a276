// A number a row may lack, in the room of the number: a results row holds two dozen of them, and a
// million rows hold them all. Reads as std::optional<double> does; NaN stands for none, which no
// row can hold as a number (a cell reading "nan" or "inf" is none already).
#pragma once

#include <cmath>
#include <limits>
#include <optional>

namespace kb {

class OptionalNumber {
 public:
  OptionalNumber() = default;
  OptionalNumber(std::nullopt_t) {}                  // NOLINT: as std::optional
  OptionalNumber(double value) : value_(value) {}   // NOLINT
  OptionalNumber(const std::optional<double>& value)  // NOLINT
      : value_(value.value_or(std::numeric_limits<double>::quiet_NaN())) {}

  bool has_value() const { return !std::isnan(value_); }
  explicit operator bool() const { return has_value(); }
  double operator*() const { return value_; }
  double value_or(double otherwise) const { return has_value() ? value_ : otherwise; }
  void reset() { value_ = std::numeric_limits<double>::quiet_NaN(); }
  operator std::optional<double>() const {  // NOLINT
    return has_value() ? std::optional<double>(value_) : std::nullopt;
  }

  // As std::optional compares: none equals none, and a number only the same number.
  friend bool operator==(const OptionalNumber& a, const OptionalNumber& b) {
    return a.has_value() == b.has_value() && (!a.has_value() || a.value_ == b.value_);
  }
  friend bool operator!=(const OptionalNumber& a, const OptionalNumber& b) { return !(a == b); }
  friend bool operator==(const OptionalNumber& a, double b) { return a.has_value() && a.value_ == b; }
  friend bool operator!=(const OptionalNumber& a, double b) { return !(a == b); }
  friend bool operator==(const OptionalNumber& a, std::nullopt_t) { return !a.has_value(); }
  friend bool operator!=(const OptionalNumber& a, std::nullopt_t) { return a.has_value(); }

 private:
  double value_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace kb
