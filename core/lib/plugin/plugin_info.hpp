// What the parent knows about a plugin: plain copies of its descriptor, read in a probe process
// (see plugin_probe.hpp), so the parent never runs a plugin's code nor holds its library. Every
// string is bounded and cleaned (plugin_text.hpp).
#pragma once

#include <kbench/plugin.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kb {

// A copy of a kb_family (ABI version 2).
struct FamilyInfo {
  std::string name;
  int rank = 0;
  std::string shape_names, default_sizes, default_blocks, default_dtypes, check_sizes,
      check_blocks, headline, reference;
};

// The family's text fields in one list (their key in records, in kb_family, in FamilyInfo), so the
// copies each way, the record and its reading, and the comparison of two descriptions cannot
// disagree. (`rank`, the one number, is beside each use.)
struct FamilyText {
  const char* key;
  const char* kb_family::*described;
  std::string FamilyInfo::*copied;
};
inline constexpr FamilyText kFamilyTexts[] = {
    {"name", &kb_family::name, &FamilyInfo::name},
    {"shape_names", &kb_family::shape_names, &FamilyInfo::shape_names},
    {"default_sizes", &kb_family::default_sizes, &FamilyInfo::default_sizes},
    {"default_blocks", &kb_family::default_blocks, &FamilyInfo::default_blocks},
    {"default_dtypes", &kb_family::default_dtypes, &FamilyInfo::default_dtypes},
    {"check_sizes", &kb_family::check_sizes, &FamilyInfo::check_sizes},
    {"check_blocks", &kb_family::check_blocks, &FamilyInfo::check_blocks},
    {"headline", &kb_family::headline, &FamilyInfo::headline},
    {"reference", &kb_family::reference, &FamilyInfo::reference}};

bool same_description(const FamilyInfo& a, const FamilyInfo& b);

// A copy of a kb_param, its values split.
struct ParamInfo {
  std::string name, description;
  std::vector<std::string> values;   // a plain sweep's
  std::vector<std::string> choices;  // what --param may ask for; empty: any value
};

// A strategy (kbench_plugin), a family's referee (kbench_family, ABI version 3), or a kernel file
// (`--kernel FILE`: a .cu, PTX, cubin or fatbin with its manifest, run by kbench's own strategy
// and refereed by its family like a version 3 strategy; plugin/kernel_manifest.hpp).
enum class PartKind { strategy, family, kernel };

struct KernelManifest;

struct PluginInfo {
  PartKind kind = PartKind::strategy;
  std::string file;  // the shared library it came from
  std::uint32_t abi_version = KB_ABI_VERSION;
  std::string name, family, version, description, ops, cuda_archs;
  kb_device_kind device = KB_DEVICE_HOST;
  std::uint32_t dtypes = 0;
  std::uint32_t flags = 0;
  bool has_accepts = false;  // false: every case of its dtypes and ops is accepted unasked
  std::optional<FamilyInfo> family_info;  // the family it describes, if it describes one
  std::vector<ParamInfo> params;
  // The family library that referees this strategy's cases (set by discovery; null when the
  // family has none). A version 3 strategy has one; a version 1 or 2 plugin's work is counted by
  // it.
  std::shared_ptr<const PluginInfo> referee;
  // A kernel file's manifest (kind kernel; `file` is the kernel file).
  std::shared_ptr<const KernelManifest> kernel;

  // A version 3 strategy or a kernel file: the family, not the plugin, owns and checks its cases.
  bool refereed_by_family() const { return kind != PartKind::family && abi_version >= 3; }
};

FamilyInfo describe_family_fields(const kb_family& family);
// A family library's descriptor as a part: name and family are the family's name, device is
// unused, version is the referee's. Only the fields of a version 3 (or later) struct are read.
PluginInfo describe_family(const KernelFamily& family, const std::string& file);

// A copy of `plugin`'s descriptor, each string read no further than kPluginStringCapacity; the
// fields of ABI version 2 only from a version 2 plugin.
PluginInfo describe_plugin(const KernelPlugin& plugin, const std::string& file);

// What a run plans a strategy's cases from, as one line: the worker that runs them refuses a
// library that describes itself otherwise there than it did to the probe (a plugin may tell the
// two processes apart, and take the family's reference's name, or other flags, in the worker).
std::string planned_identity(const PluginInfo& info);

// What is wrong with a version 2 plugin's family description or parameters; "" when nothing.
std::string check_family_and_params(const PluginInfo& info);


}  // namespace kb
