#include "referee/referee_messages.hpp"

#include "case/case_status.hpp"
#include "protocol/codec.hpp"
#include "protocol/field_reader.hpp"
#include "util/number_text.hpp"

#include <cstdio>
#include <cstring>
#include <limits>

namespace kb {
namespace {

std::string hex(const std::string& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (unsigned char byte : bytes) {
    text += digits[byte >> 4];
    text += digits[byte & 15];
  }
  return text;
}

std::string unhex(FieldReader& in, const std::string& key) {
  const std::string& text = in.text(key);
  if (text.size() % 2 != 0) in.refuse("with '" + key + "' not in hexadecimal");
  std::string bytes;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    unsigned value = 0;
    if (std::sscanf(text.c_str() + i, "%2x", &value) != 1) {
      in.refuse("with '" + key + "' not in hexadecimal");
    }
    bytes += static_cast<char>(value);
  }
  return bytes;
}

void encode_layouts(Record& r, const char* side, const std::vector<OperandLayout>& layouts) {
  r[std::string(side) + "s"] = std::to_string(layouts.size());
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    const std::string key = side + std::to_string(i) + ".";
    const OperandLayout& l = layouts[i];
    r[key + "dtype"] = std::to_string(static_cast<unsigned>(l.dtype));
    r[key + "count"] = std::to_string(l.count);
    r[key + "bytes"] = std::to_string(l.bytes);
    r[key + "ipc"] = hex(l.ipc_handle);
  }
}

std::vector<OperandLayout> decode_layouts(FieldReader& in, const char* side) {
  const unsigned long long count = in.unsigned_integer(std::string(side) + "s");
  if (count > KB_MAX_OPERANDS) in.refuse(std::string("with more ") + side + "s than an ABI holds");
  std::vector<OperandLayout> layouts(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string key = side + std::to_string(i) + ".";
    layouts[i].dtype = static_cast<kb_dtype>(in.unsigned_integer(key + "dtype"));
    layouts[i].count = in.unsigned_integer(key + "count");
    layouts[i].bytes = in.unsigned_integer(key + "bytes");
    layouts[i].ipc_handle = unhex(in, key + "ipc");
  }
  return layouts;
}

void encode_figures(Record& r, const kb_verification& v) {
  r["passed"] = v.passed ? "1" : "0";
  r["max_rel_error"] = exact_text(v.max_rel_error);
  r["tolerance"] = exact_text(v.tolerance);
  r["checked"] = std::to_string(v.checked);
  r["metrics"] = std::string(v.metrics, strnlen(v.metrics, sizeof v.metrics));
}

kb_verification decode_figures(FieldReader& in) {
  kb_verification v{};
  v.passed = in.flag("passed") ? 1 : 0;
  v.max_rel_error = in.number("max_rel_error");
  v.tolerance = in.number("tolerance");
  v.checked = in.unsigned_integer("checked");
  std::snprintf(v.metrics, sizeof v.metrics, "%s", in.text("metrics").c_str());
  return v;
}

}  // namespace

Record encode_case_spec(const RefereeCaseSpec& spec) {
  Record r = encode_case(spec.request);
  r["where"] = std::to_string(static_cast<int>(spec.where));
  r["strategy_flags"] = std::to_string(spec.strategy_flags);
  r["strategy"] = spec.strategy_name;
  r["family_file"] = spec.family_file;
  return r;
}

RefereeCaseSpec decode_case_spec(const Record& record) {
  Record request = record;
  RefereeCaseSpec spec;
  {
    FieldReader in(record, "referee case");
    const long long where = in.integer("where");
    if (where != KB_DEVICE_CUDA && where != KB_DEVICE_HOST) in.refuse("with an unknown 'where'");
    spec.where = static_cast<kb_device_kind>(where);
    spec.strategy_flags = static_cast<std::uint32_t>(in.unsigned_integer("strategy_flags"));
    spec.strategy_name = in.text("strategy");
    spec.family_file = in.text("family_file");
  }
  for (const char* key : {"where", "strategy_flags", "strategy", "family_file"}) request.erase(key);
  spec.request = decode_case(request);
  return spec;
}

Record encode_operands(const RefereeOperands& operands) {
  Record r;
  encode_layouts(r, "input", operands.inputs);
  encode_layouts(r, "output", operands.outputs);
  r["bytes"] = exact_text(operands.bytes);
  r["flops"] = exact_text(operands.flops);
  r["note"] = operands.note;
  return r;
}

RefereeOperands decode_operands(const Record& record) {
  FieldReader in(record, "operands");
  RefereeOperands operands;
  operands.inputs = decode_layouts(in, "input");
  operands.outputs = decode_layouts(in, "output");
  operands.bytes = in.number("bytes");
  operands.flops = in.number("flops");
  operands.note = in.text("note");
  in.expect_all_read();
  return operands;
}

Record encode_check_answer(const CheckAnswer& answer) {
  Record r{{"status", std::to_string(static_cast<int>(answer.status))},
           {"failure", answer.failure},
           {"message", answer.message}};
  if (answer.inputs_changed) r["inputs_changed"] = *answer.inputs_changed ? "1" : "0";
  encode_figures(r, answer.figures);
  return r;
}

CheckAnswer decode_check_answer(const Record& record) {
  FieldReader in(record, "check");
  CheckAnswer answer;
  answer.status = static_cast<kb_status>(in.integer("status"));
  answer.failure = in.text("failure");
  answer.message = in.text("message");
  if (in.has("inputs_changed")) answer.inputs_changed = in.flag("inputs_changed");
  answer.figures = decode_figures(in);
  in.expect_all_read();
  return answer;
}

Record encode_greeting(const RefereeGreeting& greeting) {
  if (!greeting.error.empty()) return {{"error", greeting.error}};
  if (!greeting.measured) return {};
  return {{"copy_gbps", exact_text(greeting.measured->copy_gbps)},
          {"read_gbps", exact_text(greeting.measured->read_gbps)},
          {"l2_gbps", exact_text(greeting.measured->l2_gbps)}};
}

RefereeGreeting decode_greeting(const Record& record) {
  FieldReader in(record, "hello");
  RefereeGreeting greeting;
  if (in.has("error")) {
    greeting.error = in.text("error");
  } else if (in.has("copy_gbps")) {
    MeasuredBandwidth measured;
    measured.copy_gbps = in.number("copy_gbps");
    measured.read_gbps = in.number("read_gbps");
    measured.l2_gbps = in.number("l2_gbps");
    greeting.measured = measured;
  }
  in.expect_all_read();
  return greeting;
}

Record encode_bare() { return {}; }

void decode_bare(const Record& record, const char* kind) {
  FieldReader(record, kind).expect_all_read();
}

Record encode_draw_request(std::uint32_t purpose) { return {{"purpose", std::to_string(purpose)}}; }

std::uint32_t decode_draw_request(const Record& record) {
  FieldReader in(record, "draw");
  const long long purpose = in.integer("purpose");
  in.expect_all_read();
  if (purpose != KB_DRAW_CHECK && purpose != KB_DRAW_NEAR) {
    in.refuse("for a draw of another purpose (" + std::to_string(purpose) + ")");
  }
  return static_cast<std::uint32_t>(purpose);
}

Record encode_check_request(const std::string& check) { return {{"name", check}}; }

std::string decode_check_request(const Record& record) { return only_text(record, "check", "name"); }

Record encode_inputs_request(const std::string& who) { return {{"who", who}}; }

std::string decode_inputs_request(const Record& record) {
  return only_text(record, "inputs", "who");
}

Record encode_connection(int connection) { return {{"connection", std::to_string(connection)}}; }

int decode_connection(const Record& record) {
  FieldReader in(record, "connection");
  const long long connection = in.integer("connection");
  if (connection < 0 || connection > std::numeric_limits<int>::max()) {
    in.refuse("with a connection out of range");
  }
  in.expect_all_read();
  return static_cast<int>(connection);
}

Record encode_failure(const RefereeFailure& failure) {
  return {{"status", std::to_string(static_cast<int>(failure.status))},
          {"stage", failure.stage},
          {"message", failure.message}};
}

RefereeFailure decode_failure(const Record& record) {
  FieldReader in(record, "failure");
  RefereeFailure failure;
  const long long status = in.integer("status");
  failure.status =
      status > KB_OK && status <= KB_VERIFY_FAILED ? static_cast<kb_status>(status) : KB_ERROR;
  failure.stage = in.text("stage");
  failure.message = in.text("message");
  in.expect_all_read();
  return failure;
}

int RefereeVerdict::times(const std::string& check) const {
  const auto it = passed.find(check);
  return it == passed.end() ? 0 : it->second;
}

Record encode_verdict(const RefereeVerdict& v) {
  Record r;
  if (v.bytes) r["bytes"] = exact_text(*v.bytes);
  if (v.flops) r["flops"] = exact_text(*v.flops);
  r["inputs"] = std::to_string(v.inputs);
  std::string passed;
  for (const auto& [check, times] : v.passed) {
    passed += (passed.empty() ? "" : ";") + check + "=" + std::to_string(times);
  }
  r["passed"] = passed;
  r["failure_status"] = std::to_string(static_cast<int>(v.failure_status));
  r["failure"] = v.failure;
  if (v.figures) {
    r["max_rel_error"] = exact_text(v.figures->max_rel_error);
    r["tolerance"] = exact_text(v.figures->tolerance);
    r["metrics"] = v.figures->metrics;
  }
  r["note"] = v.note;
  return r;
}

RefereeVerdict decode_verdict(const Record& record) {
  FieldReader in(record, "verdict");
  RefereeVerdict v;
  v.bytes = in.optional_number("bytes");
  v.flops = in.optional_number("flops");
  v.inputs = static_cast<int>(in.integer("inputs"));
  const std::string& passed = in.text("passed");
  for (std::size_t start = 0; start < passed.size();) {
    const std::size_t end = std::min(passed.find(';', start), passed.size());
    const std::string item = passed.substr(start, end - start);
    const std::size_t eq = item.rfind('=');
    if (eq == std::string::npos) in.refuse("with a malformed 'passed'");
    v.passed[item.substr(0, eq)] = std::atoi(item.c_str() + eq + 1);
    start = end + 1;
  }
  v.failure_status = static_cast<kb_status>(in.integer("failure_status"));
  v.failure = in.text("failure");
  if (in.has("max_rel_error")) {
    v.figures = VerificationFigures{in.number("max_rel_error"), in.number("tolerance"),
                                    in.text("metrics")};
  }
  v.note = in.text("note");
  in.expect_all_read();
  return v;
}

}  // namespace kb
