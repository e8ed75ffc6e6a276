// A case's parameter values (kb_case.params, "tile=256;vec=4") as a plugin reads them.
#pragma once

#include <kbench/support/error.hpp>

#include <cstdlib>
#include <map>
#include <string>

namespace kb {

class Params {
 public:
  Params() = default;
  explicit Params(const char* text) {
    const std::string all = text ? text : "";
    for (std::size_t at = 0; at < all.size();) {
      const auto end = std::min(all.find(';', at), all.size());
      const std::string item = all.substr(at, end - at);
      const auto eq = item.find('=');
      if (eq != std::string::npos) values_[item.substr(0, eq)] = item.substr(eq + 1);
      at = end + 1;
    }
  }

  // The value of `name`; `fallback` when the case has none (a runner of ABI version 1).
  std::string get(const std::string& name, const std::string& fallback) const {
    const auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
  }
  // The same, as an integer; a value that is not one is refused as unsupported.
  long long get_int(const std::string& name, long long fallback) const {
    const std::string text = get(name, std::to_string(fallback));
    char* end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0') {
      throw Error(KB_UNSUPPORTED, "parameter " + name + "=" + text + " is not an integer");
    }
    return value;
  }

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace kb
