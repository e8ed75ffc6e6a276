#include "protocol/codec.hpp"

#include "case/case_spec.hpp"
#include "protocol/field_reader.hpp"
#include "util/number_text.hpp"

#include <cstdint>

namespace kb {
namespace {

template <typename Int, std::size_t N>
std::string numbers_text(const std::array<Int, N>& values) {
  std::string text;
  for (const Int v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

std::array<std::uint32_t, 3> dims(FieldReader& in, const char* key) {
  const std::vector<long long> values = in.integers(key, 3);
  std::array<std::uint32_t, 3> dims{};
  for (int i = 0; i < 3; ++i) {
    if (values[i] < 0 || values[i] > UINT32_MAX) in.refuse(std::string("with '") + key + "' out of range");
    dims[i] = static_cast<std::uint32_t>(values[i]);
  }
  return dims;
}

// The self-checks and energy figures, each present or not, under their field names.
constexpr std::pair<const char*, std::optional<double> CaseOutcome::*> kOptionalNumbers[] = {
    {"batch_us", &CaseOutcome::batch_us},         {"enqueue_us", &CaseOutcome::enqueue_us},
    {"host_us", &CaseOutcome::host_us},           {"host_idle_us", &CaseOutcome::host_idle_us},
    {"power_w", &CaseOutcome::power_w},           {"energy_j", &CaseOutcome::energy_j},
    {"poisoned_us", &CaseOutcome::poisoned_us},   {"single_us", &CaseOutcome::single_us},
    {"launch_gain_us", &CaseOutcome::launch_gain_us}};

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ",") + item;
  return text;
}

}  // namespace

// Extents travel as their numbers, "rank,d0,d1,d2" and "b0,b1,b2": what the command line said
// ("2^20", "8192x4096") was parsed once, in the parent.
Record encode_case(const CaseRequest& c) {
  return {{"dtype", std::to_string(static_cast<unsigned>(c.dtype))},
          {"op", c.op},
          {"shape", std::to_string(c.shape.rank) + "," + numbers_text(c.shape.dims)},
          {"block", numbers_text(c.block.dims)},
          {"seed", std::to_string(c.seed)},
          {"device", std::to_string(c.device)},
          {"verbose", c.verbose ? "1" : "0"},
          {"params", c.params}};
}

CaseRequest decode_case(const Record& record) {
  FieldReader in(record, "case");
  CaseRequest c;
  c.dtype = static_cast<kb_dtype>(in.unsigned_integer("dtype"));
  c.op = in.text("op");
  const auto shape = in.integers("shape", 4);
  c.shape.rank = static_cast<int>(shape[0]);
  for (int i = 0; i < 3; ++i) c.shape.dims[i] = shape[i + 1];
  const auto block = in.integers("block", 3);
  for (int i = 0; i < 3; ++i) c.block.dims[i] = static_cast<std::int32_t>(block[i]);
  c.seed = in.unsigned_integer("seed");
  c.device = static_cast<int>(in.integer("device"));
  c.verbose = in.flag("verbose");
  c.params = in.text("params");
  in.expect_all_read();
  return c;
}

Record encode_outcome(const CaseOutcome& o) {
  Record r{{"status", status_name(o.status)}};
  if (!o.message.empty()) r["message"] = o.message;
  if (!o.kernel_compiler.empty()) r["kernel_compiler"] = o.kernel_compiler;
  if (o.context_lost) r["context_lost"] = "1";
  if (o.bytes) r["bytes"] = exact_text(*o.bytes);
  if (o.flops) r["flops"] = exact_text(*o.flops);
  if (o.timing) {
    r["timing"] = timing_name(*o.timing);
    r["sample_launches"] = std::to_string(o.sample_launches);
  }
  if (o.samples) {
    r["samples"] = std::to_string(o.samples->count);
    r["median_us"] = exact_text(o.samples->median_us);
    r["min_us"] = exact_text(o.samples->min_us);
    r["mean_us"] = exact_text(o.samples->mean_us);
    r["stddev_us"] = exact_text(o.samples->stddev_us);
    r["noise"] = exact_text(o.samples->noise);
    r["settled"] = o.samples->settled ? "1" : "0";
  }
  if (!o.sample_list.empty()) {
    std::string list;
    for (double us : o.sample_list) list += (list.empty() ? "" : ",") + exact_text(us);
    r["sample_list"] = list;
  }
  for (const auto& [key, member] : kOptionalNumbers) {
    if (o.*member) r[key] = exact_text(*(o.*member));
  }
  if (o.captured_operations) r["captured_ops"] = std::to_string(*o.captured_operations);
  if (o.cupti) {
    r["cupti_us"] = exact_text(o.cupti->us);
    r["cupti_stream_us"] = exact_text(o.cupti->stream_us);
    r["cupti_busiest_us"] = exact_text(o.cupti->busiest_us);
    r["cupti_operations"] = exact_text(o.cupti->operations);
    r["cupti_other_operations"] = exact_text(o.cupti->other_operations);
    r["cupti_kernel_names"] = o.cupti->kernels;
    r["cupti_launches"] = std::to_string(o.cupti->launches);
  }
  if (!o.counters.empty()) r["counters"] = o.counters;
  if (!o.cupti_unavailable.empty()) r["cupti_unavailable"] = o.cupti_unavailable;
  if (!o.counters_unavailable.empty()) r["counters_unavailable"] = o.counters_unavailable;
  if (o.launch) {
    r["grid"] = numbers_text(o.launch->grid);
    r["launched_block"] = numbers_text(o.launch->block);
    r["kernels"] = std::to_string(o.launch->kernels);
  }
  if (o.verification) {
    r["max_rel_error"] = exact_text(o.verification->max_rel_error);
    r["tolerance"] = exact_text(o.verification->tolerance);
    r["metrics"] = o.verification->metrics;
  }
  if (o.device_state) {
    r["sm_clock_mhz"] = std::to_string(o.device_state->sm_clock_mhz);
    r["temperature_c"] = std::to_string(o.device_state->temperature_c);
    r["throttle"] = o.device_state->throttle;
  }
  if (o.phases) {
    r["setup_s"] = exact_text(o.phases->setup);
    r["timing_s"] = exact_text(o.phases->timing);
    r["verify_s"] = exact_text(o.phases->verify);
    r["cupti_s"] = exact_text(o.phases->cupti);
    r["counters_s"] = exact_text(o.phases->counters);
  }
  return r;
}

CaseOutcome decode_outcome(const Record& record) {
  FieldReader in(record, "result");
  CaseOutcome o;
  const std::string& status = in.text("status");
  const auto parsed = parse_status(status);
  if (!parsed) in.refuse("with an unknown status '" + status + "'");
  o.status = *parsed;
  if (in.has("message")) o.message = in.text("message");
  if (in.has("kernel_compiler")) o.kernel_compiler = in.text("kernel_compiler");
  if (in.has("context_lost")) o.context_lost = in.flag("context_lost");
  o.bytes = in.optional_number("bytes");
  o.flops = in.optional_number("flops");
  if (in.has("timing")) {
    const std::string& name = in.text("timing");
    for (const auto& [value, text] : kTimingMethods) {
      if (name == text) o.timing = value;
    }
    if (!o.timing) in.refuse("with an unknown timing '" + name + "'");
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
    s.settled = in.flag("settled");
    o.samples = s;
  }
  if (in.has("sample_list")) o.sample_list = in.numbers("sample_list");
  for (const auto& [key, member] : kOptionalNumbers) o.*member = in.optional_number(key);
  if (in.has("captured_ops")) o.captured_operations = in.integer("captured_ops");
  if (in.has("cupti_us")) {
    o.cupti = CuptiFigures{in.number("cupti_us"),         in.number("cupti_stream_us"),
                           in.number("cupti_busiest_us"), in.number("cupti_operations"),
                           in.number("cupti_other_operations"), in.text("cupti_kernel_names"),
                           static_cast<int>(in.number("cupti_launches"))};
  }
  if (in.has("counters")) o.counters = in.text("counters");
  if (in.has("cupti_unavailable")) o.cupti_unavailable = in.text("cupti_unavailable");
  if (in.has("counters_unavailable")) o.counters_unavailable = in.text("counters_unavailable");
  if (in.has("grid")) {
    LaunchShape launch;
    launch.grid = dims(in, "grid");
    launch.block = dims(in, "launched_block");
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
    o.phases = PhaseSeconds{in.number("setup_s"), in.number("timing_s"), in.number("verify_s"),
                            in.number("cupti_s"), in.number("counters_s")};
  }
  in.expect_all_read();
  return o;
}

Record encode_plugin(const PluginInfo& info) {
  Record r{{"kind", info.kind == PartKind::family ? "family" : "strategy"},
           {"file", info.file},
           {"abi", std::to_string(info.abi_version)},
           {"name", info.name},
           {"family", info.family},
           {"version", info.version},
           {"description", info.description},
           {"ops", info.ops},
           {"cuda_archs", info.cuda_archs},
           {"device", std::to_string(static_cast<int>(info.device))},
           {"dtypes", std::to_string(info.dtypes)},
           {"flags", std::to_string(info.flags)},
           {"accepts", info.has_accepts ? "1" : "0"},
           {"params", std::to_string(info.params.size())}};
  if (const auto& f = info.family_info) {
    for (const auto& field : kFamilyTexts) {
      r[std::string("family.") + field.key] = (*f).*field.copied;
    }
    r["family.rank"] = std::to_string(f->rank);
  }
  for (std::size_t i = 0; i < info.params.size(); ++i) {
    const std::string at = "param." + std::to_string(i) + ".";
    r[at + "name"] = info.params[i].name;
    r[at + "values"] = joined(info.params[i].values);
    r[at + "choices"] = joined(info.params[i].choices);
    r[at + "description"] = info.params[i].description;
  }
  return r;
}

PluginInfo decode_plugin(const Record& record) {
  FieldReader in(record, "plugin");
  PluginInfo info;
  const std::string& kind = in.text("kind");
  if (kind != "family" && kind != "strategy") in.refuse("with an unknown kind '" + kind + "'");
  info.kind = kind == "family" ? PartKind::family : PartKind::strategy;
  info.file = in.text("file");
  info.abi_version = static_cast<std::uint32_t>(in.unsigned_integer("abi"));
  info.name = in.text("name");
  info.family = in.text("family");
  info.version = in.text("version");
  info.description = in.text("description");
  info.ops = in.text("ops");
  info.cuda_archs = in.text("cuda_archs");
  info.device = static_cast<kb_device_kind>(in.integer("device"));
  info.dtypes = static_cast<std::uint32_t>(in.unsigned_integer("dtypes"));
  info.flags = static_cast<std::uint32_t>(in.unsigned_integer("flags"));
  info.has_accepts = in.flag("accepts");
  if (in.has("family.name")) {
    FamilyInfo f;
    for (const auto& field : kFamilyTexts) {
      f.*field.copied = in.text(std::string("family.") + field.key);
    }
    f.rank = static_cast<int>(in.integer("family.rank"));
    info.family_info = f;
  }
  const auto count = in.unsigned_integer("params");
  for (std::size_t i = 0; i < count; ++i) {
    const std::string at = "param." + std::to_string(i) + ".";
    info.params.push_back({in.text(at + "name"), in.text(at + "description"),
                           split_list(in.text(at + "values")),
                           split_list(in.text(at + "choices"))});
  }
  in.expect_all_read();
  return info;
}

}  // namespace kb
