#include "measure/worker_settings.hpp"

#include "protocol/codec.hpp"
#include "protocol/field_reader.hpp"
#include "util/number_text.hpp"

namespace kb {
namespace {

constexpr const char* kFamilyPrefix = "family_info.";

}  // namespace

Record encode_device_opening(int device) { return {{"device", std::to_string(device)}}; }

int decode_device_opening(const Record& record) {
  FieldReader in(record, "open");
  const long long device = in.integer("device");
  in.expect_all_read();
  if (device < -1 || device > 1023) in.refuse("with device " + std::to_string(device) + ": not a device index");
  return static_cast<int>(device);
}

Record encode_worker_greeting(const WorkerGreeting& greeting) {
  Record r;
  if (!greeting.error.empty()) r["error"] = greeting.error;
  if (!greeting.short_of.empty()) r["short"] = greeting.short_of;
  return r;
}

WorkerGreeting decode_worker_greeting(const Record& record) {
  FieldReader in(record, "greeting");
  WorkerGreeting greeting;
  if (in.has("error")) greeting.error = in.text("error");
  if (in.has("short")) greeting.short_of = in.text("short");
  in.expect_all_read();
  return greeting;
}

Record encode_worker_settings(const WorkerSettings& s) {
  const TimingOptions& t = s.timing;
  Record r{{"plugin_file", s.plugin_file},
           {"kernel_file", s.kernel_file},
           {"kernel_sha256", s.kernel_sha256},
           {"planned_as", s.planned_as},
           {"family_file", s.family_file},
           {"device", std::to_string(s.device)},
           {"refereed", s.refereed ? "1" : "0"},
           {"referee_pid", std::to_string(s.referee_pid)},
           {"min_samples", std::to_string(t.rule.min_samples)},
           {"min_time", exact_text(t.rule.min_seconds)},
           {"max_time", exact_text(t.rule.max_seconds)},
           {"max_noise", exact_text(t.rule.max_noise)},
           {"hide_launch_latency", t.hide_launch_latency ? "1" : "0"},
           {"cold", t.cold ? "1" : "0"},
           {"profile", t.profile ? "1" : "0"},
           {"keep_samples", t.keep_samples ? "1" : "0"},
           {"energy_window", exact_text(t.energy_window_seconds)},
           {"cupti_clock", t.cupti_clock ? "1" : "0"},
           {"metrics", t.metrics}};
  if (s.family) {
    for (const auto& [key, value] : encode_plugin(*s.family)) r[kFamilyPrefix + key] = value;
  }
  return r;
}

WorkerSettings decode_worker_settings(const Record& record) {
  Record family;
  Record own;
  for (const auto& [key, value] : record) {
    if (key.rfind(kFamilyPrefix, 0) == 0) {
      family[key.substr(std::string(kFamilyPrefix).size())] = value;
    } else {
      own[key] = value;
    }
  }
  FieldReader in(own, "settings");
  WorkerSettings s;
  s.plugin_file = in.text("plugin_file");
  s.kernel_file = in.text("kernel_file");
  s.kernel_sha256 = in.text("kernel_sha256");
  s.planned_as = in.text("planned_as");
  s.family_file = in.text("family_file");
  s.device = static_cast<int>(in.integer("device"));
  s.refereed = in.flag("refereed");
  s.referee_pid = static_cast<int>(in.integer("referee_pid"));
  TimingOptions& t = s.timing;
  t.rule.min_samples = static_cast<std::size_t>(in.unsigned_integer("min_samples"));
  t.rule.min_seconds = in.number("min_time");
  t.rule.max_seconds = in.number("max_time");
  t.rule.max_noise = in.number("max_noise");
  t.hide_launch_latency = in.flag("hide_launch_latency");
  t.cold = in.flag("cold");
  t.profile = in.flag("profile");
  t.keep_samples = in.flag("keep_samples");
  t.energy_window_seconds = in.number("energy_window");
  t.cupti_clock = in.flag("cupti_clock");
  t.metrics = in.text("metrics");
  if (!t.metrics.empty()) t.counters = parse_counter_list(t.metrics);
  in.expect_all_read();
  if (!family.empty()) s.family = decode_plugin(family);
  return s;
}

}  // namespace kb
