#include "plugin/kernel_manifest.hpp"

#include "case/case_spec.hpp"
#include "plugin/params.hpp"
#include "util/input_error.hpp"
#include "util/sha256.hpp"
#include "util/whole_file.hpp"

#include <boost/filesystem/operations.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <set>
#include <sstream>

namespace kb {
namespace fs = boost::filesystem;
using Json = nlohmann::ordered_json;

namespace {

// ---- names and types -------------------------------------------------------------------------

struct TypeName {
  ArgType type;
  const char* names[4];  // the first is kbench's; nullptr after the last
};
const TypeName kTypes[] = {
    {ArgType::i32, {"int32", "int", "int32_t", nullptr}},
    {ArgType::i64, {"int64", "long long", "int64_t", "long"}},
    {ArgType::u32, {"uint32", "unsigned", "unsigned int", "uint32_t"}},
    {ArgType::u64, {"uint64", "unsigned long long", "uint64_t", "size_t"}},
    {ArgType::f32, {"float32", "float", nullptr, nullptr}},
    {ArgType::f64, {"float64", "double", nullptr, nullptr}},
};

const char* const kReserved[] = {"bx",      "by",      "bz",      "elem_bytes", "sms",
                                 "block_x", "block_y", "block_z", "grid_x",     "grid_y",
                                 "grid_z",  "T",       "op"};

bool is_identifier(const std::string& s) {
  return !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_') &&
         std::all_of(s.begin(), s.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

bool is_integer_text(const std::string& s) {
  std::size_t i = s.size() > 1 && s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return s.size() <= 19;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string joined(const std::vector<std::string>& items, const char* separator = ", ") {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

// ---- reading the files -----------------------------------------------------------------------

std::string read_file(const std::string& path, const std::string& what) {
  auto bytes = read_whole_file(path);
  if (!bytes) throw InputError(what + ": cannot read '" + path + "'");
  return std::move(*bytes);
}

// The format a file's extension says; nothing for another extension (.cuh, .h, .cpp), whose
// manifest must say it ("format").
std::optional<KernelFormat> format_of_name(const std::string& name) {
  if (name == "cu") return KernelFormat::source;
  if (name == "ptx") return KernelFormat::ptx;
  if (name == "cubin") return KernelFormat::cubin;
  if (name == "fatbin") return KernelFormat::fatbin;
  return std::nullopt;
}
std::optional<KernelFormat> format_of(const std::string& file) {
  const std::string ext = fs::path(file).extension().string();
  return ext.empty() ? std::nullopt : format_of_name(ext.substr(1));
}

// The JSON of a `/* kbench ... */` comment at the top of a .cu (only blank lines and // comments
// before it), and the line it starts on; empty when there is none.
std::pair<std::string, int> manifest_comment(const std::string& text) {
  std::size_t at = 0;
  int line = 1;
  while (at < text.size()) {
    const char c = text[at];
    if (c == '\n') ++line;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++at;
      continue;
    }
    if (text.compare(at, 2, "//") == 0) {
      at = text.find('\n', at);
      if (at == std::string::npos) return {};
      continue;
    }
    if (text.compare(at, 2, "/*") != 0) return {};
    const std::size_t end = text.find("*/", at + 2);
    if (end == std::string::npos) return {};
    std::size_t body = at + 2;
    while (body < end && std::isspace(static_cast<unsigned char>(text[body]))) ++body;
    if (text.compare(body, 6, "kbench") == 0 &&
        (body + 6 == end || std::isspace(static_cast<unsigned char>(text[body + 6])) ||
         text[body + 6] == '{')) {
      return {text.substr(body + 6, end - body - 6), line};
    }
    line += static_cast<int>(std::count(text.begin() + static_cast<long>(at),
                                        text.begin() + static_cast<long>(end), '\n'));
    at = end + 2;
  }
  return {};
}

// ---- JSON helpers ----------------------------------------------------------------------------

void only_keys(const Json& object, std::initializer_list<const char*> allowed,
               const std::string& where) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (std::none_of(allowed.begin(), allowed.end(),
                     [&](const char* key) { return it.key() == key; })) {
      std::string list;
      for (const char* key : allowed) list += std::string(list.empty() ? "" : ", ") + key;
      throw InputError(where + ": unknown key '" + it.key() + "' (known: " + list + ")");
    }
  }
}

std::string string_of(const Json& j, const std::string& where) {
  if (!j.is_string()) throw InputError(where + " must be a string");
  return j.get<std::string>();
}

// A value given as a JSON string or number, as text ("32", "auto").
std::string scalar_text(const Json& j, const std::string& where) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_integer()) return std::to_string(j.get<long long>());
  if (j.is_number_unsigned()) return std::to_string(j.get<unsigned long long>());
  throw InputError(where + " must be a string or an integer");
}

Formula formula_of(const Json& j, const std::string& where) {
  try {
    if (j.is_number_integer()) return Formula::constant(j.get<long long>());
    if (j.is_number_unsigned()) {
      const auto value = j.get<unsigned long long>();
      if (value > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max())) {
        throw InputError(where + " is too large");
      }
      return Formula::constant(static_cast<std::int64_t>(value));
    }
    if (j.is_string()) return Formula::parse(j.get<std::string>());
  } catch (const FormulaError& e) {
    throw InputError(where + ": " + e.what());
  }
  throw InputError(where + " must be a formula (a string) or an integer");
}

// "cdiv(cols, 32), cdiv(rows, 32)" -> its comma-separated parts, commas inside parentheses kept.
std::vector<std::string> split_top_level(const std::string& text) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

// A grid, block or cluster: one to three formulas, as an array, a comma-separated string or a
// number.
std::vector<Formula> dims_of(const Json& j, const std::string& where) {
  std::vector<Formula> dims;
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      dims.push_back(formula_of(j[i], where + "[" + std::to_string(i) + "]"));
    }
  } else if (j.is_string()) {
    const auto parts = split_top_level(j.get<std::string>());
    for (std::size_t i = 0; i < parts.size(); ++i) {
      dims.push_back(formula_of(Json(parts[i]), where + "[" + std::to_string(i) + "]"));
    }
  } else {
    dims.push_back(formula_of(j, where));
  }
  if (dims.empty() || dims.size() > 3) throw InputError(where + " must have 1 to 3 dimensions");
  return dims;
}

std::vector<std::string> text_list(const Json& j, const std::string& where) {
  std::vector<std::string> items;
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      items.push_back(scalar_text(j[i], where + "[" + std::to_string(i) + "]"));
    }
  } else if (j.is_string()) {
    items = split_list(j.get<std::string>());
  } else {
    items.push_back(scalar_text(j, where));
  }
  return items;
}

ArgType type_of(const Json& j, const std::string& where) {
  const std::string name = string_of(j, where);
  for (const auto& t : kTypes) {
    for (const char* n : t.names) {
      if (n != nullptr && name == n) return t.type;
    }
  }
  throw InputError(where + ": unknown type '" + name +
                   "' (known: int32, int64, uint32, uint64, float32, float64)");
}

// `family_output`: the buffer is one the family hands, which the runner can zero outside the
// timed region; a buffer of the kernel's own is allocated by the strategy and zeroed in its launch.
ZeroWhen zero_of(const Json& j, const std::string& where, bool family_output) {
  const std::string when = string_of(j, where);
  if (when == "never") return ZeroWhen::never;
  if (when == "once") return ZeroWhen::once;
  if (when == "launch") return ZeroWhen::each_launch;
  if (when == "untimed") {
    if (family_output) return ZeroWhen::untimed;
    throw InputError(where + ": 'untimed' is for the family's outputs (output:N), which kbench "
                     "zeroes outside the timed region; a buffer of the kernel's own is zeroed in "
                     "its launch (\"launch\")");
  }
  throw InputError(where + ": '" + when + "' is not never, once, launch or untimed");
}

// An element type: a data type's name or C name ("int32", "int", "float"), or "T": the case's.
kb_dtype element_of(const Json& j, const std::string& where) {
  const std::string name = string_of(j, where);
  if (name == "T") return KB_DTYPE_NONE;
  const kb_dtype dtype = element_type_of(name);
  if (dtype == KB_DTYPE_NONE) {
    throw InputError(where + ": unknown element type '" + name +
                     "' (known: T, int32, int64, float32, float64, float16, bfloat16, int8)");
  }
  return dtype;
}

// ---- the manifest's parts --------------------------------------------------------------------

std::vector<KernelKnob> knobs_of(const Json& j) {
  if (!j.is_array()) throw InputError("'knobs' must be an array of objects");
  std::vector<KernelKnob> knobs;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string where = "knobs[" + std::to_string(i) + "]";
    if (!j[i].is_object()) throw InputError(where + " must be an object");
    only_keys(j[i], {"name", "values", "choices", "description", "define", "formula"}, where);
    KernelKnob knob;
    if (!j[i].contains("name")) throw InputError(where + " has no 'name'");
    knob.name = string_of(j[i]["name"], where + ".name");
    const std::string what = "knob '" + knob.name + "'";
    if (!is_identifier(knob.name)) {
      throw InputError(what + ": a name is letters, digits and '_', not starting with a digit");
    }
    if (j[i].contains("formula")) {
      if (j[i].contains("values") || j[i].contains("choices")) {
        throw InputError(what + ": a knob has 'values' (swept) or a 'formula' (of the case), not both");
      }
      knob.formula = formula_of(j[i]["formula"], what + " formula");
      knob.values = {"0"};  // a placeholder: its value is the formula's in every case
    } else if (!j[i].contains("values")) {
      throw InputError(what + " has no 'values' (the values swept) and no 'formula' (its value as "
                       "a formula of the case)");
    } else {
      knob.values = text_list(j[i]["values"], what + " values");
    }
    if (j[i].contains("choices")) knob.choices = text_list(j[i]["choices"], what + " choices");
    if (j[i].contains("description")) {
      knob.description = string_of(j[i]["description"], what + " description");
    }
    knob.define = j[i].contains("define") ? string_of(j[i]["define"], what + " define")
                                          : upper(knob.name);
    if (!knob.define.empty() && !is_identifier(knob.define)) {
      throw InputError(what + ": define '" + knob.define + "' is not a C identifier");
    }
    if (knob.values.empty()) throw InputError(what + " has no values");
    for (const auto* list : {&knob.values, &knob.choices}) {
      for (std::size_t v = 0; v < list->size(); ++v) {
        const std::string& value = (*list)[v];
        if (value.empty() || value.find_first_of(";=, \t{}") != std::string::npos) {
          throw InputError(what + ": value '" + value + "' is empty or holds ;=,{} or a space");
        }
        if (std::count(list->begin(), list->begin() + static_cast<long>(v), value)) {
          throw InputError(what + " lists '" + value + "' twice");
        }
        if (!is_integer_text(value)) knob.numeric = false;
      }
    }
    for (const auto& value : knob.values) {
      if (!knob.choices.empty() && !std::count(knob.choices.begin(), knob.choices.end(), value)) {
        throw InputError(what + ": value '" + value + "' is not among its choices");
      }
    }
    for (const auto& other : knobs) {
      if (other.name == knob.name) throw InputError(what + " declared twice");
    }
    for (const char* reserved : kReserved) {
      if (knob.name == reserved) throw InputError(what + ": '" + knob.name + "' is a reserved name");
    }
    if (knob.name.rfind("op_", 0) == 0) throw InputError(what + ": names op_* are reserved");
    knobs.push_back(std::move(knob));
  }
  return knobs;
}

const KernelKnob* find_knob(const std::vector<KernelKnob>& knobs, const std::string& name) {
  for (const auto& k : knobs) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::size_t operand_index(const std::string& text, const std::string& where) {
  const auto index = parse_unsigned(text);
  if (!index || *index >= KB_MAX_OPERANDS) {
    throw InputError(where + ": operand index '" + text + "' is not 0 to " +
                     std::to_string(KB_MAX_OPERANDS - 1));
  }
  return static_cast<std::size_t>(*index);
}

KernelArg arg_of(const Json& j, const std::vector<KernelKnob>& knobs, const std::string& where) {
  KernelArg arg;
  if (j.is_string()) {
    // "input:0", "output:0", "scratch:BYTES", "NAME" or "NAME:TYPE" (an extent or a knob).
    const std::string text = j.get<std::string>();
    const auto colon = text.find(':');
    const std::string head = text.substr(0, colon);
    const std::string tail = colon == std::string::npos ? "" : text.substr(colon + 1);
    if (head == "input" || head == "output") {
      arg.role = head == "input" ? ArgRole::input : ArgRole::output;
      arg.index = static_cast<int>(operand_index(tail, where));
      arg.name = text;
      return arg;
    }
    if (head == "scratch") {
      arg.role = ArgRole::scratch;
      arg.bytes = formula_of(Json(tail), where + " bytes");
      arg.zero = ZeroWhen::once;
      arg.name = "scratch";
      return arg;
    }
    if (!is_identifier(head)) {
      throw InputError(where + ": '" + text + "' is no role (input:N, output:N, scratch:BYTES, "
                       "an extent or knob name, or an object with \"role\")");
    }
    arg.role = find_knob(knobs, head) ? ArgRole::knob : ArgRole::extent;
    arg.name = head;
    arg.type = colon == std::string::npos ? ArgType::i32 : type_of(Json(tail), where + " type");
    if (arg.type == ArgType::pointer) throw InputError(where + ": an extent is a number");
    return arg;
  }
  if (!j.is_object()) throw InputError(where + " must be a string or an object");
  if (!j.contains("role")) throw InputError(where + " has no 'role'");
  const std::string role = string_of(j["role"], where + ".role");
  if (role == "output" && (j.contains("element") || j.contains("elements"))) {
    // The kernel's own output buffer: wider than the family's result, or of another element
    // type; kbench copies (widens) its first elements into the family's output after the launches.
    only_keys(j, {"role", "index", "name", "element", "elements", "at", "zero"}, where);
    arg.role = ArgRole::scratch;
    arg.result_of = j.contains("index")
                        ? static_cast<int>(operand_index(scalar_text(j["index"], where + ".index"), where))
                        : 0;
    arg.name = j.contains("name") ? string_of(j["name"], where + ".name")
                                  : "output:" + std::to_string(arg.result_of);
    arg.result_type = j.contains("element") ? element_of(j["element"], where + ".element")
                                            : KB_DTYPE_NONE;
    if (j.contains("elements")) arg.bytes = formula_of(j["elements"], where + ".elements");
    arg.bytes_in_elements = j.contains("elements");
    arg.sized_by_result = !j.contains("elements");
    if (j.contains("at")) arg.result_at = formula_of(j["at"], where + ".at");
    arg.zero = j.contains("zero") ? zero_of(j["zero"], where + ".zero", false) : ZeroWhen::never;
    return arg;
  }
  if (role == "input" || role == "output") {
    only_keys(j, {"role", "index", "name", "zero"}, where);
    arg.role = role == "input" ? ArgRole::input : ArgRole::output;
    arg.index = j.contains("index")
                    ? static_cast<int>(operand_index(scalar_text(j["index"], where + ".index"), where))
                    : 0;
    arg.name = j.contains("name") ? string_of(j["name"], where + ".name") : role;
    if (j.contains("zero")) {
      if (arg.role == ArgRole::input) throw InputError(where + ": an input is never zeroed");
      arg.zero = zero_of(j["zero"], where + ".zero", true);
      if (arg.zero == ZeroWhen::once) {
        throw InputError(where + ": an output zeroed once would hold its family's poison at "
                         "the next checked launch: use \"untimed\" or \"launch\"");
      }
    }
    return arg;
  }
  if (role == "extent" || role == "knob") {
    only_keys(j, {"role", "name", "type"}, where);
    arg.role = role == "extent" ? ArgRole::extent : ArgRole::knob;
    if (!j.contains("name")) throw InputError(where + " has no 'name'");
    arg.name = string_of(j["name"], where + ".name");
    arg.type = j.contains("type") ? type_of(j["type"], where + ".type") : ArgType::i32;
    if (arg.role == ArgRole::knob && !find_knob(knobs, arg.name)) {
      throw InputError(where + ": no knob named '" + arg.name + "'");
    }
    return arg;
  }
  if (role == "scalar") {
    only_keys(j, {"role", "name", "type", "value"}, where);
    arg.role = ArgRole::scalar;
    arg.name = j.contains("name") ? string_of(j["name"], where + ".name") : "scalar";
    arg.type = j.contains("type") ? type_of(j["type"], where + ".type") : ArgType::i32;
    if (!j.contains("value")) throw InputError(where + " has no 'value'");
    const Json& value = j["value"];
    if (value.is_number_float()) {
      if (!is_float(arg.type)) {
        throw InputError(where + ": value " + value.dump() + " for an integer type");
      }
      arg.number = value.get<double>();
    } else {
      arg.value = formula_of(value, where + ".value");
    }
    return arg;
  }
  if (role == "scratch") {
    only_keys(j, {"role", "name", "bytes", "zero", "result", "at", "element"}, where);
    arg.role = ArgRole::scratch;
    arg.name = j.contains("name") ? string_of(j["name"], where + ".name") : "scratch";
    if (!j.contains("bytes")) {
      // Another launch's buffer, by its name.
      if (!j.contains("name")) {
        throw InputError(where + " has no 'bytes' (its size) and no 'name' (of a scratch buffer "
                         "an earlier launch declares)");
      }
      for (const char* key : {"zero", "result", "at", "element"}) {
        if (j.contains(key)) {
          throw InputError(where + ": '" + key + "' belongs where scratch '" + arg.name +
                           "' is declared, with its 'bytes'");
        }
      }
      arg.shared = true;
      return arg;
    }
    arg.bytes = formula_of(j["bytes"], where + ".bytes");
    arg.zero = j.contains("zero") ? zero_of(j["zero"], where + ".zero", false) : ZeroWhen::once;
    if (j.contains("result")) {
      const std::string result = string_of(j["result"], where + ".result");
      if (result.rfind("output:", 0) != 0) {
        throw InputError(where + ".result: '" + result + "' is not output:N (the family's output "
                         "the buffer holds after the last launch)");
      }
      arg.result_of = static_cast<int>(operand_index(result.substr(7), where + ".result"));
      if (j.contains("at")) arg.result_at = formula_of(j["at"], where + ".at");
      if (j.contains("element")) arg.result_type = element_of(j["element"], where + ".element");
    } else if (j.contains("at") || j.contains("element")) {
      throw InputError(where + ": 'at' and 'element' say where and how the buffer holds a "
                       "result: give 'result' (output:N) too");
    }
    return arg;
  }
  throw InputError(where + ": unknown role '" + role +
                   "' (known: input, output, extent, scalar, knob, scratch)");
}

// The placeholders of an entry: {T}, {op} and knob names.
void check_entry(const std::string& entry, const std::vector<KernelKnob>& knobs) {
  if (entry.empty()) throw InputError("'entry' is empty");
  for (std::size_t at = entry.find('{'); at != std::string::npos; at = entry.find('{', at + 1)) {
    const std::size_t end = entry.find('}', at);
    if (end == std::string::npos) throw InputError("entry '" + entry + "': '{' without '}'");
    const std::string name = entry.substr(at + 1, end - at - 1);
    if (name != "T" && name != "op" && !find_knob(knobs, name)) {
      throw InputError("entry '" + entry + "': unknown placeholder {" + name +
                       "} (known: {T}, {op} and the knobs)");
    }
  }
}

// One launch: its entry, parameters, grid, block, cluster and shared memory; `where` names it in
// messages ("" for the top level's, "launches[1]." for another).
KernelStep step_of(const Json& j, const std::vector<KernelKnob>& knobs, const std::string& where) {
  for (const char* required : {"entry", "params", "grid", "block"}) {
    if (!j.contains(required)) {
      throw InputError((where.empty() ? std::string("manifest") : where.substr(0, where.size() - 1)) +
                       " has no '" + required + "'");
    }
  }
  KernelStep step;
  step.entry = string_of(j["entry"], "'" + where + "entry'");
  check_entry(step.entry, knobs);
  if (!j["params"].is_array() || j["params"].empty()) {
    throw InputError("'" + where + "params' must be a non-empty array: the kernel's parameters in "
                     "order");
  }
  for (std::size_t i = 0; i < j["params"].size(); ++i) {
    step.args.push_back(arg_of(j["params"][i], knobs, where + "params[" + std::to_string(i) + "]"));
  }
  step.grid = dims_of(j["grid"], "'" + where + "grid'");
  step.block = dims_of(j["block"], "'" + where + "block'");
  if (j.contains("cluster")) step.cluster = dims_of(j["cluster"], "'" + where + "cluster'");
  if (j.contains("shared_bytes")) {
    step.shared_bytes = formula_of(j["shared_bytes"], "'" + where + "shared_bytes'");
  }
  return step;
}

// Scratch buffers by name: a parameter without bytes names one declared before it (in its launch
// or an earlier one); one name is declared once.
void check_scratch_names(const std::vector<KernelStep>& launches) {
  std::set<std::string> declared;
  for (std::size_t s = 0; s < launches.size(); ++s) {
    for (std::size_t i = 0; i < launches[s].args.size(); ++i) {
      const KernelArg& a = launches[s].args[i];
      if (a.role != ArgRole::scratch) continue;
      const std::string where = (launches.size() > 1 ? "launches[" + std::to_string(s) + "] " : "") +
                                a.describe(i);
      if (a.shared && !declared.count(a.name)) {
        throw InputError(where + ": no scratch '" + a.name + "' declared (with its 'bytes') before "
                         "it");
      }
      if (!a.shared && a.name != "scratch" && !declared.insert(a.name).second) {
        throw InputError(where + ": scratch '" + a.name + "' declared twice (name it without "
                         "'bytes' to pass the same buffer)");
      }
    }
  }
}

void parse_manifest(KernelManifest& m, const Json& j, std::optional<KernelFormat> by_extension) {
  if (!j.is_object()) throw InputError("the manifest must be a JSON object");
  only_keys(j, {"family", "name", "description", "format", "compiler", "entry", "dtypes", "ops",
                "params", "grid", "block", "cluster", "shared_bytes", "launches", "requires",
                "math", "nondeterministic", "knobs", "defines", "options", "type_alias"},
            "manifest");
  if (j.contains("format")) {
    const std::string name = string_of(j["format"], "'format'");
    const auto format = format_of_name(name);
    if (!format) throw InputError("'format' '" + name + "' is not cu, ptx, cubin or fatbin");
    if (by_extension && *by_extension != *format) {
      throw InputError("'format' says " + name + ", the file's extension " +
                       format_name(*by_extension));
    }
    m.format = *format;
  } else if (!by_extension) {
    throw InputError("the extension '" + fs::path(m.file).extension().string() + "' says no "
                     "format: the manifest must say it (\"format\": \"cu\" for CUDA source, or "
                     "ptx, cubin, fatbin)");
  }
  for (const char* required : {"family", "dtypes"}) {
    if (!j.contains(required)) throw InputError(std::string("manifest has no '") + required + "'");
  }
  m.family = string_of(j["family"], "'family'");
  if (m.family.empty() || m.family.find_first_of("/ ,\t") != std::string::npos) {
    throw InputError("'family' '" + m.family + "' is not one word");
  }
  if (j.contains("knobs")) m.knobs = knobs_of(j["knobs"]);
  try {
    for (kb_dtype d : parse_dtypes(joined(text_list(j["dtypes"], "'dtypes'"), ","))) m.dtypes |= d;
  } catch (const InputError& e) {
    throw InputError(std::string("'dtypes': ") + e.what());
  }
  if (j.contains("ops")) m.ops = text_list(j["ops"], "'ops'");
  if (j.contains("launches")) {
    for (const char* key : {"entry", "params", "grid", "block", "cluster", "shared_bytes"}) {
      if (j.contains(key)) {
        throw InputError(std::string("'") + key + "' is each launch's: with 'launches', give it "
                         "in each of them");
      }
    }
    const Json& launches = j["launches"];
    if (!launches.is_array() || launches.empty()) {
      throw InputError("'launches' must be a non-empty array of launches, in order");
    }
    for (std::size_t i = 0; i < launches.size(); ++i) {
      const std::string where = "launches[" + std::to_string(i) + "].";
      if (!launches[i].is_object()) throw InputError("'launches[" + std::to_string(i) + "]' must be an object");
      only_keys(launches[i], {"entry", "params", "grid", "block", "cluster", "shared_bytes"},
                "launches[" + std::to_string(i) + "]");
      m.launches.push_back(step_of(launches[i], m.knobs, where));
    }
  } else {
    m.launches.push_back(step_of(j, m.knobs, ""));
  }
  check_scratch_names(m.launches);
  for (const KernelStep& step : m.launches) {
    for (const KernelArg& a : step.args) {
      if (a.zero == ZeroWhen::untimed) m.flags |= KB_FLAG_ZEROED_OUTPUTS;
    }
  }
  if (j.contains("requires")) {
    const Json& rules = j["requires"];
    if (rules.is_array()) {
      for (std::size_t i = 0; i < rules.size(); ++i) {
        m.requirements.push_back(formula_of(rules[i], "requires[" + std::to_string(i) + "]"));
      }
    } else {
      m.requirements.push_back(formula_of(rules, "'requires'"));
    }
  }
  if (j.contains("math")) {
    const std::string math = string_of(j["math"], "'math'");
    const std::pair<const char*, std::uint32_t> kMath[] = {
        {"simt", KB_FLAG_MATH_SIMT}, {"tf32", KB_FLAG_MATH_TF32}, {"bf16", KB_FLAG_MATH_BF16},
        {"fp16", KB_FLAG_MATH_FP16}, {"fp64_tensor", KB_FLAG_MATH_FP64_TENSOR}};
    const auto it = std::find_if(std::begin(kMath), std::end(kMath),
                                 [&](const auto& entry) { return math == entry.first; });
    if (it == std::end(kMath)) {
      throw InputError("'math' '" + math + "' is not simt, tf32, bf16, fp16 or fp64_tensor");
    }
    m.flags |= it->second;
  }
  if (j.contains("nondeterministic")) {
    if (!j["nondeterministic"].is_boolean()) throw InputError("'nondeterministic' must be true or false");
    if (j["nondeterministic"].get<bool>()) m.flags |= KB_FLAG_NONDETERMINISTIC;
  }
  if (j.contains("name")) m.name = string_of(j["name"], "'name'");
  if (j.contains("description")) m.description = string_of(j["description"], "'description'");
  const bool source = m.format == KernelFormat::source;
  for (const char* only_source : {"defines", "options", "type_alias", "compiler"}) {
    if (j.contains(only_source) && !source) {
      throw InputError(std::string("'") + only_source + "' is for a .cu kernel (compiled by "
                       "kbench); this one is " + format_name(m.format));
    }
  }
  if (j.contains("type_alias")) {
    m.type_alias = string_of(j["type_alias"], "'type_alias'");
    if (!m.type_alias.empty() && !is_identifier(m.type_alias)) {
      throw InputError("'type_alias' '" + m.type_alias + "' is not a C identifier");
    }
  }
  if (j.contains("defines")) {
    if (!j["defines"].is_object()) throw InputError("'defines' must be an object NAME: VALUE");
    for (auto it = j["defines"].begin(); it != j["defines"].end(); ++it) {
      if (!is_identifier(it.key())) throw InputError("define '" + it.key() + "' is not a C identifier");
      m.defines.emplace_back(it.key(), scalar_text(it.value(), "define '" + it.key() + "'"));
    }
  }
  if (j.contains("options")) m.options = text_list(j["options"], "'options'");
  if (j.contains("compiler")) {
    m.compiler = string_of(j["compiler"], "'compiler'");
    if (m.compiler != "auto" && m.compiler != "nvcc" && m.compiler != "nvrtc") {
      throw InputError("'compiler' '" + m.compiler + "' is not nvcc, nvrtc or auto");
    }
  }
}

// The default name: family/<stem>, with the format for compiled code (a kernel and its PTX run
// side by side under two names).
std::string default_name(const KernelManifest& m) {
  std::string stem = fs::path(m.file).filename().string();
  stem = stem.substr(0, stem.find('.'));
  if (m.format != KernelFormat::source) stem += std::string("_") + format_name(m.format);
  return m.family + "/" + stem;
}

void check_name(KernelManifest& m) {
  if (m.name.empty()) m.name = default_name(m);
  if (m.name.find('/') == std::string::npos) m.name = m.family + "/" + m.name;
  const auto slash = m.name.find('/');
  const std::string strategy = m.name.substr(slash + 1);
  if (m.name.substr(0, slash) != m.family) {
    throw InputError("name '" + m.name + "' is not of the family '" + m.family + "'");
  }
  if (strategy.empty() || m.name.size() > 200 ||
      !std::all_of(strategy.begin(), strategy.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
      })) {
    throw InputError("name '" + m.name + "' is not family/NAME with NAME of letters, digits, "
                     "'_', '-' and '.'");
  }
  if (m.description.empty()) {
    m.description = std::string("kernel file ") + fs::path(m.file).filename().string();
  }
}

void check_contents(const KernelManifest& m) {
  const std::string& c = m.contents;
  if (m.format == KernelFormat::cubin && c.compare(0, 4, "\x7f" "ELF") != 0) {
    throw InputError("not a cubin: no ELF header");
  }
  if (m.format == KernelFormat::fatbin && c.compare(0, 4, "\x50\xed\x55\xba") != 0) {
    throw InputError("not a fatbin: no fatbin header");
  }
  if (m.format == KernelFormat::ptx &&
      (c.find(".version") == std::string::npos || c.find(".entry") == std::string::npos)) {
    throw InputError("not PTX: no .version or .entry");
  }
}

// ---- formulas in their contexts --------------------------------------------------------------

std::vector<std::string> names_in(const std::vector<Formula>& formulas) {
  std::vector<std::string> names;
  for (const auto& f : formulas) {
    for (const auto& n : f.names()) {
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
  }
  return names;
}

void check_names(const std::vector<Formula>& formulas, const std::set<std::string>& allowed,
                 const std::string& where, const KernelManifest& m) {
  for (const auto& f : formulas) {
    for (const auto& name : f.names()) {
      if (allowed.count(name)) continue;
      if (const KernelKnob* knob = find_knob(m.knobs, name); knob && !knob->numeric) {
        throw InputError(where + " uses knob '" + name + "', whose values are not all integers");
      }
      if ((name == "bx" || name == "by" || name == "bz") && !m.block_from_case()) {
        throw InputError(where + " uses '" + name + "', but the block does not come from "
                         "--blocks (the manifest's block uses none of bx, by, bz)");
      }
      throw InputError(where + ": formula '" + f.text() + "' uses unknown name '" + name +
                       "' (known here: " + joined({allowed.begin(), allowed.end()}) + ")");
    }
  }
}

FormulaVariables case_variables(const KernelManifest& m, const CaseRequest& r) {
  FormulaVariables v;
  for (std::size_t i = 0; i < m.shape_names.size() && i < 3; ++i) {
    v[m.shape_names[i]] = r.shape.dims[i];
  }
  if (m.block_from_case()) {
    v["bx"] = std::max<std::int64_t>(1, r.block.dims[0]);
    v["by"] = std::max<std::int64_t>(1, r.block.dims[1]);
    v["bz"] = std::max<std::int64_t>(1, r.block.dims[2]);
  }
  v["elem_bytes"] = static_cast<std::int64_t>(dtype_bytes(r.dtype));
  for (const auto& op : m.ops) v["op_" + op] = r.op == op;
  const ParamValues params = r.params.empty() ? ParamValues{} : parse_params(r.params);
  for (const auto& knob : m.knobs) {
    if (knob.formula) {
      v[knob.name] = knob.formula->evaluate(v);
      continue;
    }
    if (!knob.numeric) continue;
    std::string value = knob.values.front();
    for (const auto& [name, given] : params) {
      if (name == knob.name) value = given;
    }
    v[knob.name] = std::stoll(value);
  }
  return v;
}

// Whether a rule needs the launch's grid or block (checked once the launch is formed).
bool uses_launch(const Formula& rule) {
  for (const char* name : {"block_x", "block_y", "block_z", "grid_x", "grid_y", "grid_z", "sms"}) {
    if (rule.uses(name)) return true;
  }
  return false;
}

std::string knob_value(const KernelManifest& m, const KernelKnob& knob, const CaseRequest& r) {
  if (knob.formula) return std::to_string(case_variables(m, r).at(knob.name));
  const ParamValues params = r.params.empty() ? ParamValues{} : parse_params(r.params);
  for (const auto& [name, value] : params) {
    if (name == knob.name) return value;
  }
  (void)m;
  return knob.values.front();
}

std::string case_text(const CaseRequest& r) {
  std::string text = std::string(dtype_name(r.dtype));
  if (!r.op.empty()) text += " " + r.op;
  text += " " + format_extent(r.shape);
  if (!r.block.own()) text += " block " + format_block(r.block);
  if (!r.params.empty()) text += " " + r.params;
  return text;
}

bool fits(ArgType type, std::int64_t value) {
  switch (type) {
    case ArgType::i32: return value >= INT32_MIN && value <= INT32_MAX;
    case ArgType::u32: return value >= 0 && value <= static_cast<std::int64_t>(UINT32_MAX);
    case ArgType::u64: return value >= 0;
    default: return true;
  }
}

}  // namespace

// ---- public ----------------------------------------------------------------------------------

const char* format_name(KernelFormat format) {
  switch (format) {
    case KernelFormat::source: return "cu";
    case KernelFormat::ptx: return "ptx";
    case KernelFormat::cubin: return "cubin";
    case KernelFormat::fatbin: return "fatbin";
  }
  return "?";
}

const char* role_name(ArgRole role) {
  switch (role) {
    case ArgRole::input: return "input";
    case ArgRole::output: return "output";
    case ArgRole::extent: return "extent";
    case ArgRole::scalar: return "scalar";
    case ArgRole::knob: return "knob";
    case ArgRole::scratch: return "scratch";
  }
  return "?";
}

const char* type_name(ArgType type) {
  if (type == ArgType::pointer) return "pointer";
  for (const auto& t : kTypes) {
    if (t.type == type) return t.names[0];
  }
  return "?";
}

std::size_t type_size(ArgType type) {
  return type == ArgType::i32 || type == ArgType::u32 || type == ArgType::f32 ? 4 : 8;
}

bool is_float(ArgType type) { return type == ArgType::f32 || type == ArgType::f64; }

const char* c_type_name(kb_dtype dtype) {
  switch (dtype) {
    case KB_DTYPE_F32: return "float";
    case KB_DTYPE_F64: return "double";
    case KB_DTYPE_I32: return "int";
    case KB_DTYPE_F16: return "__half";
    case KB_DTYPE_BF16: return "__nv_bfloat16";
    case KB_DTYPE_I8: return "signed char";
    case KB_DTYPE_I64: return "long long";
    default: return "void";
  }
}

std::string KernelArg::describe(std::size_t position) const {
  std::string text = "parameter " + std::to_string(position) + " (" + role_name(role);
  if (role == ArgRole::input || role == ArgRole::output) {
    text += " " + std::to_string(index);
  } else if (role == ArgRole::extent || role == ArgRole::knob) {
    text += " '" + name + "'";
  }
  if (type != ArgType::pointer) text += std::string(", ") + type_name(type);
  return text + ")";
}

std::vector<KernelManifest> read_kernel_manifests(const std::string& given) {
  KernelManifest m;
  std::vector<KernelManifest> manifests;
  try {
    if (given.empty()) throw InputError("the kernel file name is empty");
    boost::system::error_code error;
    m.file = fs::absolute(given).lexically_normal().string();
    if (!fs::is_regular_file(m.file, error)) throw InputError("no such file");
    const std::optional<KernelFormat> by_extension = format_of(m.file);
    m.format = by_extension.value_or(KernelFormat::source);
    m.contents = read_file(m.file, "the kernel");
    m.sha256 = sha256_hex(m.contents);
    if (by_extension) check_contents(m);

    // The manifest: FILE.json, STEM.json (beside it), or a comment at the top of a .cu.
    const fs::path path(m.file);
    const std::string beside[] = {m.file + ".json",
                                  (path.parent_path() / (path.stem().string() + ".json")).string()};
    std::string text;
    int first_line = 1;
    for (const auto& candidate : beside) {
      if (fs::is_regular_file(candidate, error)) {
        m.manifest_file = candidate;
        text = read_file(candidate, "the manifest");
        // The launch it describes is part of the idea: an edited manifest is another version.
        m.sha256 = sha256_hex(m.contents + std::string("\0kbench manifest\0", 17) + text);
        break;
      }
    }
    // A comment at the top: of CUDA source, or of a file whose extension says no format (a
    // .cuh), which its manifest then names.
    const auto comment = m.format == KernelFormat::source ? manifest_comment(m.contents)
                                                          : std::pair<std::string, int>{};
    if (!comment.first.empty() || comment.second != 0) {
      if (!m.manifest_file.empty()) {
        throw InputError("two manifests: " + m.manifest_file +
                         " and a /* kbench ... */ comment in the file; keep one");
      }
      m.manifest_file = m.file;
      text = comment.first;
      first_line = comment.second;
    }
    if (m.manifest_file.empty()) {
      throw InputError(std::string("no manifest: looked for ") +
                       fs::path(beside[0]).filename().string() + ", " +
                       fs::path(beside[1]).filename().string() +
                       (m.format == KernelFormat::source
                            ? " and a /* kbench { ... } */ comment at the top of the file"
                            : "") +
                       (by_extension ? "" : "; a file whose extension is not .cu, .ptx, .cubin or "
                                            ".fatbin needs one that says its \"format\"") +
                       " (docs/kernel-files.md)");
    }
    Json j;
    try {
      j = Json::parse(text, nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
    } catch (const Json::exception& e) {
      std::string what = e.what();
      what = what.substr(what.find(']') == std::string::npos ? 0 : what.find(']') + 2);
      throw InputError("manifest is not valid JSON" +
                       (m.manifest_file == m.file
                            ? " (the comment from line " + std::to_string(first_line) + ")"
                            : " (" + fs::path(m.manifest_file).filename().string() + ")") +
                       ": " + what);
    }
    // Several strategies of one file: each an object of keys that replace the top level's.
    std::vector<std::pair<std::string, Json>> objects;
    if (j.is_object() && j.contains("strategies")) {
      const Json& list = j["strategies"];
      if (!list.is_array() || list.empty()) {
        throw InputError("'strategies' must be a non-empty array of objects, each with its "
                         "'name' and the keys in which it differs");
      }
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string where = "strategies[" + std::to_string(i) + "]";
        if (!list[i].is_object() || !list[i].contains("name")) {
          throw InputError(where + " must be an object with a 'name'");
        }
        if (list[i].contains("strategies") || list[i].contains("format")) {
          throw InputError(where + ": 'strategies' and 'format' are the file's, not a strategy's");
        }
        Json merged = j;
        merged.erase("strategies");
        for (auto it = list[i].begin(); it != list[i].end(); ++it) merged[it.key()] = it.value();
        objects.emplace_back(where + " ", std::move(merged));
      }
    } else {
      objects.emplace_back("", j);
    }
    for (const auto& [where, object] : objects) {
      KernelManifest one = m;
      try {
        parse_manifest(one, object, by_extension);
        if (!by_extension) check_contents(one);
        check_name(one);
      } catch (const InputError& e) {
        throw InputError(where + e.what());
      }
      // Whether the block comes from --blocks: a launch's block formulas name the case's block.
      bool from_case = false;
      for (const auto& step : one.launches) {
        const auto block_names = names_in(step.block);
        from_case = from_case || std::any_of(block_names.begin(), block_names.end(), [](const auto& n) {
                      return n == "bx" || n == "by" || n == "bz";
                    });
      }
      if (!from_case) one.flags |= KB_FLAG_OWN_LAUNCH_SHAPE;
      for (const auto& other : manifests) {
        if (other.name == one.name) throw InputError(where + "name '" + one.name + "' twice");
      }
      manifests.push_back(std::move(one));
    }
  } catch (const InputError& e) {
    throw InputError(given + ": " + e.what());
  }
  return manifests;
}

KernelManifest read_kernel_manifest(const std::string& given, const std::string& name) {
  std::vector<KernelManifest> manifests = read_kernel_manifests(given);
  if (name.empty()) return std::move(manifests.front());
  std::string names;
  for (auto& m : manifests) {
    if (m.name == name) return std::move(m);
    names += (names.empty() ? "" : ", ") + m.name;
  }
  throw InputError(given + ": no strategy '" + name + "' in its manifest (it has " + names + ")");
}

void bind_to_family(KernelManifest& m, const PluginInfo& family) {
  try {
    if (!family.family_info) throw InputError("the " + m.family + " family describes no shape");
    const FamilyInfo& f = *family.family_info;
    m.shape_names = split_list(f.shape_names);
    if (!(family.dtypes & m.dtypes) || (m.dtypes & ~family.dtypes)) {
      throw InputError("'dtypes': the " + m.family + " family referees " +
                       dtype_list(family.dtypes) + ", not " +
                       dtype_list(m.dtypes & ~family.dtypes));
    }
    const auto family_ops = split_list(family.ops);
    if (m.ops.empty()) {
      m.ops = family_ops;
    } else {
      for (const auto& op : m.ops) {
        if (!std::count(family_ops.begin(), family_ops.end(), op)) {
          throw InputError("'ops': the " + m.family + " family has no operation '" + op + "'" +
                           (family_ops.empty() ? " (it has one, unnamed)"
                                               : " (it has " + family.ops + ")"));
        }
        if (std::count(m.ops.begin(), m.ops.end(), op) > 1) {
          throw InputError("'ops' lists '" + op + "' twice");
        }
      }
    }
    for (const auto& knob : m.knobs) {
      if (std::count(m.shape_names.begin(), m.shape_names.end(), knob.name)) {
        throw InputError("knob '" + knob.name + "' has the name of an extent of the family");
      }
    }
    const bool several = m.launches.size() > 1;
    const auto where = [&](std::size_t step, const std::string& what) {
      return several ? "launches[" + std::to_string(step) + "] " + what : what;
    };
    for (std::size_t s = 0; s < m.launches.size(); ++s) {
      const auto& args = m.launches[s].args;
      for (std::size_t i = 0; i < args.size(); ++i) {
        const KernelArg& a = args[i];
        if (a.role == ArgRole::extent &&
            !std::count(m.shape_names.begin(), m.shape_names.end(), a.name)) {
          throw InputError(where(s, a.describe(i)) + ": '" + a.name + "' is no extent of the " +
                           m.family + " family (it has " + f.shape_names + ") and no knob");
        }
        if (a.role == ArgRole::knob && !find_knob(m.knobs, a.name)->numeric) {
          throw InputError(where(s, a.describe(i)) + ": knob '" + a.name +
                           "' has values that are not integers");
        }
      }
    }
    // Which names each formula may use: later ones see what earlier ones computed.
    std::set<std::string> names(m.shape_names.begin(), m.shape_names.end());
    names.insert("elem_bytes");
    for (const auto& op : m.ops) names.insert("op_" + op);
    for (const auto& knob : m.knobs) {
      if (knob.formula) check_names({*knob.formula}, names, "knob '" + knob.name + "' formula", m);
      if (knob.numeric) names.insert(knob.name);
    }
    if (m.block_from_case()) names.insert({"bx", "by", "bz"});
    // A rule of the first launch's grid is checked where the grid is known: once formed.
    std::set<std::string> launch_names = names;
    launch_names.insert({"block_x", "block_y", "block_z", "sms", "grid_x", "grid_y", "grid_z"});
    check_names(m.requirements, launch_names, "'requires'", m);
    for (std::size_t s = 0; s < m.launches.size(); ++s) {
      const KernelStep& step = m.launches[s];
      std::set<std::string> here = names;
      check_names(step.block, here, where(s, "'block'"), m);
      here.insert({"block_x", "block_y", "block_z", "sms"});
      check_names(step.grid, here, where(s, "'grid'"), m);
      here.insert({"grid_x", "grid_y", "grid_z"});
      check_names(step.cluster, here, where(s, "'cluster'"), m);
      check_names({step.shared_bytes}, here, where(s, "'shared_bytes'"), m);
      for (std::size_t i = 0; i < step.args.size(); ++i) {
        const KernelArg& a = step.args[i];
        if (a.role == ArgRole::scratch && !a.shared) {
          check_names({a.bytes, a.result_at}, here, where(s, a.describe(i)), m);
        }
        if (a.role == ArgRole::scalar && !a.number) {
          check_names({a.value}, here, where(s, a.describe(i)), m);
        }
      }
    }
  } catch (const InputError& e) {
    throw InputError(m.file + ": " + e.what());
  }
}

PluginInfo kernel_part(std::shared_ptr<const KernelManifest> manifest,
                       std::shared_ptr<const PluginInfo> referee) {
  const KernelManifest& m = *manifest;
  PluginInfo info;
  info.kind = PartKind::kernel;
  info.file = m.file;
  info.abi_version = KB_ABI_VERSION;
  info.name = m.name;
  info.family = m.family;
  info.version = m.sha256.substr(0, 12);
  info.description = m.description;
  info.ops = joined(m.ops, ",");
  info.cuda_archs = m.format == KernelFormat::source ? "compiled before the run"
                    : m.format == KernelFormat::ptx  ? "ptx (driver JIT)"
                                                     : format_name(m.format);
  info.device = KB_DEVICE_CUDA;
  info.dtypes = m.dtypes;
  info.flags = m.flags;
  info.has_accepts = true;
  for (const auto& knob : m.knobs) {
    if (!knob.formula) info.params.push_back({knob.name, knob.description, knob.values, knob.choices});
  }
  info.referee = std::move(referee);
  info.kernel = std::move(manifest);
  return info;
}

bool kernel_accepts(const KernelManifest& m, const CaseRequest& r, std::string& why) {
  try {
    const FormulaVariables v = case_variables(m, r);
    for (const auto& rule : m.requirements) {
      if (!uses_launch(rule) && rule.evaluate(v) == 0) {
        why = "the manifest requires " + rule.text();
        return false;
      }
    }
  } catch (const std::exception& e) {
    why = std::string("the manifest's requires: ") + e.what();
    return false;
  }
  for (const auto& step : m.launches) {
    for (std::size_t i = 0; i < step.args.size(); ++i) {
      const KernelArg& a = step.args[i];
      if (a.role != ArgRole::extent) continue;
      const auto at = std::find(m.shape_names.begin(), m.shape_names.end(), a.name);
      const std::int64_t value = r.shape.dims[static_cast<std::size_t>(at - m.shape_names.begin())];
      if (!fits(a.type, value)) {
        why = a.name + " = " + std::to_string(value) + " does not fit " + a.describe(i);
        return false;
      }
    }
  }
  return true;
}

std::string KernelVariant::key() const {
  return joined(entries, "\n") + "\n" + prelude + joined(options, "\n");
}

KernelVariant kernel_variant(const KernelManifest& m, const CaseRequest& r) {
  KernelVariant v;
  const auto placeholder = [&](const std::string& name) {
    return std::any_of(m.launches.begin(), m.launches.end(), [&](const KernelStep& step) {
      return step.entry.find("{" + name + "}") != std::string::npos;
    });
  };
  // Each launch's entry with its placeholders filled.
  for (const auto& step : m.launches) {
    std::string entry = step.entry;
    const auto fill = [&](const std::string& name, const std::string& value) {
      const std::string token = "{" + name + "}";
      for (auto at = entry.find(token); at != std::string::npos; at = entry.find(token, at)) {
        entry.replace(at, token.size(), value);
        at += value.size();
      }
    };
    fill("T", c_type_name(r.dtype));
    fill("op", r.op);
    for (const auto& knob : m.knobs) fill(knob.name, knob_value(m, knob, r));
    v.entries.push_back(entry);
  }
  if (m.format != KernelFormat::source) return v;
  // A .cu's type (T, as a typedef before the source) and its defines: each knob where the entry
  // does not take them as template arguments, the operation where the source looks for it
  // (KB_OP_SUM), and the manifest's own. A knob the source never names is not defined, so its
  // values share one compiled variant.
  // The type as a typedef, not a macro: -DT=float would also rename the T of every template in
  // the headers NVRTC (and nvcc) put before the source.
  if (r.dtype == KB_DTYPE_F16) v.prelude += "#include <cuda_fp16.h>\n";
  if (r.dtype == KB_DTYPE_BF16) v.prelude += "#include <cuda_bf16.h>\n";
  if (!m.type_alias.empty() && !placeholder("T") && r.dtype != KB_DTYPE_NONE) {
    v.prelude += "typedef " + std::string(c_type_name(r.dtype)) + " " + m.type_alias + ";\n";
  }
  for (const auto& knob : m.knobs) {
    if (knob.define.empty() || placeholder(knob.name) ||
        m.contents.find(knob.define) == std::string::npos) {
      continue;
    }
    v.options.push_back("-D" + knob.define + "=" + knob_value(m, knob, r));
  }
  if (!r.op.empty() && m.contents.find("KB_OP_") != std::string::npos) {
    v.options.push_back("-DKB_OP_" + upper(r.op) + "=1");
  }
  for (const auto& [name, value] : m.defines) {
    v.options.push_back("-D" + name + (value.empty() ? "" : "=" + value));
  }
  return v;
}

std::vector<KernelLaunch> kernel_launches(const KernelManifest& m, const CaseRequest& r,
                                          int sms) {
  std::vector<KernelLaunch> launches;
  const bool several = m.launches.size() > 1;
  std::string what = "'block'";
  try {
    const FormulaVariables base = case_variables(m, r);
    for (std::size_t s = 0; s < m.launches.size(); ++s) {
      const KernelStep& step = m.launches[s];
      const std::string prefix = several ? "launches[" + std::to_string(s) + "] " : "";
      KernelLaunch launch;
      FormulaVariables v = base;
      const auto dims = [&](const std::vector<Formula>& formulas, const char* name,
                            std::array<std::uint32_t, 3>& out, std::int64_t limit_x,
                            std::int64_t limit_yz) {
        for (std::size_t i = 0; i < formulas.size(); ++i) {
          what = prefix + "'" + name + "'[" + std::to_string(i) + "] = " + formulas[i].text();
          const std::int64_t value = formulas[i].evaluate(v);
          const std::int64_t limit = i == 0 ? limit_x : limit_yz;
          if (value < 1 || value > limit) {
            throw InputError(what + " is " + std::to_string(value) + ", not 1 to " +
                             std::to_string(limit));
          }
          out[i] = static_cast<std::uint32_t>(value);
        }
      };
      dims(step.block, "block", launch.block, 1024, 1024);
      v["block_x"] = launch.block[0], v["block_y"] = launch.block[1], v["block_z"] = launch.block[2];
      v["sms"] = sms;
      dims(step.grid, "grid", launch.grid, std::int64_t{INT32_MAX}, 65535);
      v["grid_x"] = launch.grid[0], v["grid_y"] = launch.grid[1], v["grid_z"] = launch.grid[2];
      if (s == 0) {
        // The rules of the (first) launch's grid and block, now that they are known.
        for (const auto& rule : m.requirements) {
          what = "'requires' " + rule.text();
          if (uses_launch(rule) && rule.evaluate(v) == 0) {
            throw InputError("the manifest requires " + rule.text());
          }
        }
      }
      if (!step.cluster.empty()) {
        dims(step.cluster, "cluster", launch.cluster, 16, 16);
        launch.clustered = true;
        for (int i = 0; i < 3; ++i) {
          if (launch.grid[i] % launch.cluster[i] != 0) {
            throw InputError(prefix + "the grid " + std::to_string(launch.grid[i]) +
                             " is no multiple of the cluster " + std::to_string(launch.cluster[i]) +
                             " in dimension " + std::to_string(i));
          }
        }
      }
      what = prefix + "'shared_bytes' = " + step.shared_bytes.text();
      const std::int64_t shared = step.shared_bytes.evaluate(v);
      if (shared < 0 || shared > INT32_MAX) {
        throw InputError(what + " is " + std::to_string(shared));
      }
      launch.shared_bytes = static_cast<std::uint64_t>(shared);
      for (std::size_t i = 0; i < step.args.size(); ++i) {
        const KernelArg& a = step.args[i];
        what = prefix + a.describe(i);
        KernelLaunch::Value value;
        switch (a.role) {
          case ArgRole::extent:
          case ArgRole::knob: value.integer = v.at(a.name); break;
          case ArgRole::scalar:
            if (a.number) {
              value.real = *a.number;
            } else {
              value.integer = a.value.evaluate(v);
            }
            break;
          case ArgRole::scratch:
            if (a.shared) break;
            // Bytes, or for an output of the kernel's own, elements (0: the family's count).
            value.integer = a.sized_by_result ? 0 : a.bytes.evaluate(v);
            if (value.integer < 0) {
              throw InputError(what + " has " + std::to_string(value.integer) + " bytes");
            }
            if (a.result_of >= 0) {
              value.real = static_cast<double>(a.result_at.evaluate(v));
              if (value.real < 0) throw InputError(what + ": its result is at a negative element");
            }
            break;
          default: break;
        }
        if (is_float(a.type) && !a.number) value.real = static_cast<double>(value.integer);
        if (a.role != ArgRole::scratch && !is_float(a.type) && !fits(a.type, value.integer)) {
          throw InputError(what + ": " + std::to_string(value.integer) + " does not fit " +
                           type_name(a.type));
        }
        launch.values.push_back(value);
      }
      launches.push_back(std::move(launch));
    }
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + " (case " + case_text(r) + ")");
  } catch (const std::exception& e) {
    throw InputError(what + ": " + e.what() + " (case " + case_text(r) + ")");
  }
  return launches;
}

std::string compare_params(const KernelStep& step, const std::vector<KernelParam>& kernel,
                           const std::string& source) {
  const auto& args = step.args;
  if (kernel.size() != args.size()) {
    return "the kernel takes " + std::to_string(kernel.size()) + " parameter" +
           (kernel.size() == 1 ? "" : "s") + " (" + source + "), the manifest lists " +
           std::to_string(args.size());
  }
  for (std::size_t i = 0; i < kernel.size(); ++i) {
    const KernelArg& a = args[i];
    const std::size_t expected = type_size(a.type);
    if (kernel[i].bytes != expected) {
      return a.describe(i) + " is " + std::to_string(expected) + " bytes, the kernel's is " +
             std::to_string(kernel[i].bytes) + " (" + source + ")";
    }
    if (kernel[i].kind == 'f' && !is_float(a.type)) {
      return a.describe(i) + " is " + (a.type == ArgType::pointer ? "a pointer" : "an integer") +
             ", the kernel's is floating-point (" + source + ")";
    }
    if (kernel[i].kind == 'i' && is_float(a.type)) {
      return a.describe(i) + " is floating-point, the kernel's is an integer or pointer (" +
             source + ")";
    }
  }
  return "";
}

kb_dtype element_type_of(const std::string& name) {
  const std::pair<const char*, kb_dtype> kNames[] = {
      {"int32", KB_DTYPE_I32},   {"int", KB_DTYPE_I32},           {"int64", KB_DTYPE_I64},
      {"long long", KB_DTYPE_I64}, {"float32", KB_DTYPE_F32},     {"float", KB_DTYPE_F32},
      {"float64", KB_DTYPE_F64}, {"double", KB_DTYPE_F64},        {"float16", KB_DTYPE_F16},
      {"__half", KB_DTYPE_F16},  {"bfloat16", KB_DTYPE_BF16},     {"__nv_bfloat16", KB_DTYPE_BF16},
      {"int8", KB_DTYPE_I8},     {"signed char", KB_DTYPE_I8}};
  for (const auto& [text, dtype] : kNames) {
    if (name == text) return dtype;
  }
  return KB_DTYPE_NONE;
}

}  // namespace kb
