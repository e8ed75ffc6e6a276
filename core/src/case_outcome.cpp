#include "case_outcome.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <utility>

namespace kb {
namespace {

constexpr std::pair<CaseStatus, const char*> kStatusNames[] = {
    {CaseStatus::ok, "ok"},           {CaseStatus::verify_failed, "verify_failed"},
    {CaseStatus::unsupported, "unsupported"}, {CaseStatus::error, "error"},
    {CaseStatus::crashed, "crashed"}, {CaseStatus::timeout, "timeout"},
    {CaseStatus::oom, "oom"}};

constexpr std::pair<TimingMethod, const char*> kTimingNames[] = {
    {TimingMethod::held, "held"},
    {TimingMethod::plain, "plain"},
    {TimingMethod::host, "host"},
    {TimingMethod::profile, "profile"}};

// The self-checks and energy figures, each present or not, under their field names.
constexpr std::pair<const char*, std::optional<double> CaseOutcome::*> kOptionalNumbers[] = {
    {"batch_us", &CaseOutcome::batch_us},         {"enqueue_us", &CaseOutcome::enqueue_us},
    {"host_us", &CaseOutcome::host_us},           {"host_idle_us", &CaseOutcome::host_idle_us},
    {"power_w", &CaseOutcome::power_w},           {"energy_j", &CaseOutcome::energy_j}};

// Seventeen significant digits: every double comes back exactly.
std::string exact(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string dims_text(const std::array<std::uint32_t, 3>& dims) {
  return std::to_string(dims[0]) + "," + std::to_string(dims[1]) + "," + std::to_string(dims[2]);
}

// Reads the fields of one record, each once; what is left unread at the end is an error.
class FieldReader {
 public:
  explicit FieldReader(const Record& record) : record_(record) {}

  bool has(const char* key) const { return record_.count(key) != 0; }

  const std::string& text(const char* key) {
    const auto it = record_.find(key);
    if (it == record_.end()) {
      throw ProtocolError(std::string("result record without '") + key + "'");
    }
    read_.insert(key);
    return it->second;
  }

  // ERANGE is no error here: the worker wrote the number, subnormals included ("inf" and "nan"
  // too), and strtod reads it back exactly.
  double number(const char* key) {
    const std::string& value = text(key);
    char* end = nullptr;
    const double parsed = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') malformed(key, value);
    return parsed;
  }

  long long integer(const char* key) {
    const std::string& value = text(key);
    char* end = nullptr;
    errno = 0;
    const long long parsed = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || errno == ERANGE) malformed(key, value);
    return parsed;
  }

  std::optional<double> optional_number(const char* key) {
    return has(key) ? std::optional<double>(number(key)) : std::nullopt;
  }

  std::array<std::uint32_t, 3> dims(const char* key) {
    const std::string& value = text(key);
    std::array<std::uint32_t, 3> dims{};
    unsigned long long parsed[3];
    char tail = 0;
    if (std::sscanf(value.c_str(), "%llu,%llu,%llu%c", &parsed[0], &parsed[1], &parsed[2],
                    &tail) != 3) {
      malformed(key, value);
    }
    for (int i = 0; i < 3; ++i) dims[i] = static_cast<std::uint32_t>(parsed[i]);
    return dims;
  }

  void expect_all_read() const {
    for (const auto& [key, value] : record_) {
      if (!read_.count(key)) {
        throw ProtocolError("result record with an unknown field '" + key + "'");
      }
    }
  }

 private:
  [[noreturn]] static void malformed(const char* key, const std::string& value) {
    throw ProtocolError(std::string("result record: '") + key + "' is not a number: '" + value +
                        "'");
  }

  const Record& record_;
  std::set<std::string> read_;
};

}  // namespace

const char* status_name(CaseStatus status) {
  for (const auto& [value, name] : kStatusNames) {
    if (value == status) return name;
  }
  return "error";
}

CaseStatus status_of(kb_status status) {
  switch (status) {
    case KB_OK: return CaseStatus::ok;
    case KB_UNSUPPORTED: return CaseStatus::unsupported;
    case KB_OOM: return CaseStatus::oom;
    case KB_VERIFY_FAILED: return CaseStatus::verify_failed;
    case KB_ERROR: break;
  }
  return CaseStatus::error;
}

std::optional<CaseStatus> parse_status(const std::string& name) {
  for (const auto& [value, known] : kStatusNames) {
    if (name == known) return value;
  }
  return std::nullopt;
}

const char* timing_name(TimingMethod method) {
  for (const auto& [value, name] : kTimingNames) {
    if (value == method) return name;
  }
  return "plain";
}

CaseOutcome CaseOutcome::without_run(CaseStatus status, std::string message) {
  CaseOutcome outcome;
  outcome.status = status;
  outcome.message = std::move(message);
  return outcome;
}

Record encode_outcome(const CaseOutcome& o) {
  Record r{{"status", status_name(o.status)}};
  if (!o.message.empty()) r["message"] = o.message;
  if (o.context_lost) r["context_lost"] = "1";
  if (o.bytes) r["bytes"] = exact(*o.bytes);
  if (o.flops) r["flops"] = exact(*o.flops);
  if (o.timing) {
    r["timing"] = timing_name(*o.timing);
    r["sample_launches"] = std::to_string(o.sample_launches);
  }
  if (o.samples) {
    r["samples"] = std::to_string(o.samples->count);
    r["median_us"] = exact(o.samples->median_us);
    r["min_us"] = exact(o.samples->min_us);
    r["mean_us"] = exact(o.samples->mean_us);
    r["stddev_us"] = exact(o.samples->stddev_us);
    r["noise"] = exact(o.samples->noise);
    r["settled"] = o.samples->settled ? "1" : "0";
  }
  if (!o.sample_list.empty()) {
    std::string list;
    for (double us : o.sample_list) list += (list.empty() ? "" : ",") + exact(us);
    r["sample_list"] = list;
  }
  for (const auto& [key, member] : kOptionalNumbers) {
    if (o.*member) r[key] = exact(*(o.*member));
  }
  if (o.captured_operations) r["captured_ops"] = std::to_string(*o.captured_operations);
  if (o.launch) {
    r["grid"] = dims_text(o.launch->grid);
    r["launched_block"] = dims_text(o.launch->block);
    r["kernels"] = std::to_string(o.launch->kernels);
  }
  if (o.verification) {
    r["max_rel_error"] = exact(o.verification->max_rel_error);
    r["tolerance"] = exact(o.verification->tolerance);
    r["metrics"] = o.verification->metrics;
  }
  if (o.device_state) {
    r["sm_clock_mhz"] = std::to_string(o.device_state->sm_clock_mhz);
    r["temperature_c"] = std::to_string(o.device_state->temperature_c);
    r["throttle"] = o.device_state->throttle;
  }
  if (o.phases) {
    r["setup_s"] = exact(o.phases->setup);
    r["timing_s"] = exact(o.phases->timing);
    r["verify_s"] = exact(o.phases->verify);
  }
  return r;
}

CaseOutcome decode_outcome(const Record& record) {
  FieldReader in(record);
  CaseOutcome o;
  const std::string& status = in.text("status");
  const auto parsed = parse_status(status);
  if (!parsed) throw ProtocolError("result record with an unknown status '" + status + "'");
  o.status = *parsed;
  if (in.has("message")) o.message = in.text("message");
  if (in.has("context_lost")) o.context_lost = in.text("context_lost") == "1";
  o.bytes = in.optional_number("bytes");
  o.flops = in.optional_number("flops");
  if (in.has("timing")) {
    const std::string& name = in.text("timing");
    for (const auto& [value, text] : kTimingNames) {
      if (name == text) o.timing = value;
    }
    if (!o.timing) throw ProtocolError("result record with an unknown timing '" + name + "'");
    o.sample_launches = static_cast<int>(in.integer("sample_launches"));
  }
  if (in.has("samples")) {
    SampleSummary s;
    s.count = in.integer("samples");
    s.median_us = in.number("median_us");
    s.min_us = in.number("min_us");
    s.mean_us = in.number("mean_us");
    s.stddev_us = in.number("stddev_us");
    s.noise = in.number("noise");
    s.settled = in.text("settled") == "1";
    o.samples = s;
  }
  if (in.has("sample_list")) {
    std::istringstream list(in.text("sample_list"));
    for (std::string item; std::getline(list, item, ',');) {
      char* end = nullptr;
      const double us = std::strtod(item.c_str(), &end);
      if (item.empty() || *end != '\0') throw ProtocolError("result record: a malformed sample");
      o.sample_list.push_back(us);
    }
  }
  for (const auto& [key, member] : kOptionalNumbers) o.*member = in.optional_number(key);
  if (in.has("captured_ops")) o.captured_operations = in.integer("captured_ops");
  if (in.has("grid")) {
    LaunchShape launch;
    launch.grid = in.dims("grid");
    launch.block = in.dims("launched_block");
    launch.kernels = static_cast<std::uint32_t>(in.integer("kernels"));
    o.launch = launch;
  }
  if (in.has("max_rel_error")) {
    o.verification = VerificationFigures{in.number("max_rel_error"), in.number("tolerance"),
                                         in.text("metrics")};
  }
  if (in.has("sm_clock_mhz")) {
    o.device_state = DeviceState{static_cast<unsigned>(in.integer("sm_clock_mhz")),
                                 static_cast<unsigned>(in.integer("temperature_c")),
                                 in.text("throttle")};
  }
  if (in.has("setup_s")) {
    o.phases = PhaseSeconds{in.number("setup_s"), in.number("timing_s"), in.number("verify_s")};
  }
  in.expect_all_read();
  return o;
}

}  // namespace kb
