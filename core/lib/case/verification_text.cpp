#include "case/verification_text.hpp"

#include "util/number_text.hpp"
#include "util/plugin_text.hpp"

#include <cmath>

namespace kb {

std::string verification_contradiction(kb_status status, const kb_verification& check) {
  if (status != KB_OK) return "";
  if (!check.passed) return "verify returned KB_OK with passed = 0";
  if (std::isnan(check.max_rel_error)) return "verify passed a NaN error";
  if (check.tolerance > 0 && check.max_rel_error > check.tolerance) {
    return "verify passed a max relative error " + significant_text(check.max_rel_error) +
           " over its tolerance " + significant_text(check.tolerance);
  }
  return "";
}

bool verification_failed(kb_status status, const kb_verification& check) {
  return status == KB_VERIFY_FAILED || !verification_contradiction(status, check).empty();
}

std::string check_failure(const char* check, bool refereed, kb_status status,
                          const kb_verification& v, const kb_message& message) {
  std::string text = refereed ? std::string("check '") + check + "' failed" : "verification failed";
  const std::string contradiction = verification_contradiction(KB_OK, v);
  if (status == KB_OK && !contradiction.empty()) {
    text += ": " + contradiction;
  } else if (v.tolerance > 0 || v.max_rel_error > 0) {
    text += ": max relative error " + significant_text(v.max_rel_error) + " over tolerance " +
            significant_text(v.tolerance);
  }
  const std::string detail = plugin_text(message.text);
  if (!detail.empty()) text += "; " + detail;
  const std::string metrics = plugin_text(v.metrics);
  if (refereed && !metrics.empty()) text += " (" + metrics + ")";
  return text;
}

}  // namespace kb
