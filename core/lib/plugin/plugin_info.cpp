#include "plugin/plugin_info.hpp"

#include "case/case_spec.hpp"
#include "util/input_error.hpp"
#include "util/plugin_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace kb {
namespace {

std::string text(const char* s) { return plugin_text(s, kPluginStringCapacity); }

bool is_identifier(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

}  // namespace

FamilyInfo describe_family_fields(const kb_family& f) {
  FamilyInfo family;
  for (const auto& field : kFamilyTexts) family.*field.copied = text(f.*field.described);
  family.rank = f.rank;
  return family;
}

bool same_description(const FamilyInfo& a, const FamilyInfo& b) {
  for (const auto& field : kFamilyTexts) {
    if (a.*field.copied != b.*field.copied) return false;
  }
  return a.rank == b.rank;
}

PluginInfo describe_family(const KernelFamily& family, const std::string& file) {
  PluginInfo info;
  info.kind = PartKind::family;
  info.file = file;
  info.abi_version = family.abi_version;
  if (family.abi_version < 3 || family.struct_size < sizeof(KernelFamily)) return info;
  if (family.info != nullptr) info.family_info = describe_family_fields(*family.info);
  info.name = info.family = info.family_info ? info.family_info->name : "";
  info.version = text(family.version);
  info.description = "the referee of the " + info.family + " family";
  info.ops = text(family.ops);
  info.dtypes = family.dtypes;
  info.has_accepts = family.accepts != nullptr;
  return info;
}

std::string planned_identity(const PluginInfo& info) {
  char masks[64];
  std::snprintf(masks, sizeof masks, "dtypes=0x%x flags=0x%x", info.dtypes, info.flags);
  return "name=" + info.name + " version=" + info.version + " abi=" +
         std::to_string(info.abi_version) +
         " device=" + (info.device == KB_DEVICE_CUDA ? "cuda" : "host") + " " + masks +
         " ops=" + info.ops;
}

PluginInfo describe_plugin(const KernelPlugin& plugin, const std::string& file) {
  PluginInfo info;
  info.file = file;
  info.abi_version = plugin.abi_version;
  info.name = text(plugin.name);
  info.family = text(plugin.family);
  info.version = text(plugin.version);
  info.description = text(plugin.description);
  info.ops = text(plugin.ops);
  info.cuda_archs = text(plugin.cuda_archs);
  info.device = plugin.device;
  info.dtypes = plugin.dtypes;
  info.flags = plugin.flags;
  info.has_accepts = plugin.accepts != nullptr;
  if (plugin.abi_version < 2 || plugin.struct_size < KB_PLUGIN_SIZE_V2) return info;
  // A version 3 strategy's family is described by the family's own library.
  if (plugin.family_info != nullptr && plugin.abi_version < 3) {
    info.family_info = describe_family_fields(*plugin.family_info);
  }
  for (std::uint32_t i = 0; plugin.params != nullptr && i < plugin.param_count && i < 64; ++i) {
    ParamInfo param{text(plugin.params[i].name), text(plugin.params[i].description), {}, {}};
    param.values = split_list(text(plugin.params[i].values));
    param.choices = split_list(text(plugin.params[i].choices));
    info.params.push_back(param);
  }
  return info;
}

std::string check_family_and_params(const PluginInfo& info) {
  if (const auto& f = info.family_info) {
    const std::string what = "family description of '" + f->name + "': ";
    if (f->name != info.family) return what + "its name is not the plugin's family '" + info.family + "'";
    if (f->rank < 1 || f->rank > 3) return what + "rank " + std::to_string(f->rank) + " is not 1 to 3";
    if (static_cast<int>(split_list(f->shape_names).size()) != f->rank) {
      return what + "shape_names '" + f->shape_names + "' does not name " +
             std::to_string(f->rank) + " entries";
    }
    if (f->headline != "gbps" && f->headline != "gflops" && f->headline != "time") {
      return what + "headline '" + f->headline + "' is not gbps, gflops or time";
    }
    if (!f->reference.empty() && f->reference.rfind(f->name + "/", 0) != 0) {
      return what + "reference '" + f->reference + "' is not a plugin of the family";
    }
    try {
      for (const auto& size : parse_sizes(f->default_sizes)) broadcast(size, f->rank);
      for (const auto& size : parse_sizes(f->check_sizes)) broadcast(size, f->rank);
      if (!f->default_blocks.empty()) parse_blocks(f->default_blocks);
      if (!f->check_blocks.empty()) parse_blocks(f->check_blocks);
      if (f->default_dtypes != "none") parse_dtypes(f->default_dtypes);
    } catch (const InputError& e) {
      return what + e.what();
    }
  }
  for (std::size_t i = 0; i < info.params.size(); ++i) {
    const ParamInfo& p = info.params[i];
    if (!is_identifier(p.name)) {
      return "parameter name '" + p.name + "' is not letters, digits and '_'";
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (info.params[j].name == p.name) return "parameter '" + p.name + "' declared twice";
    }
    if (p.values.empty()) return "parameter '" + p.name + "' has no values";
    for (const auto* list : {&p.values, &p.choices}) {
      for (std::size_t v = 0; v < list->size(); ++v) {
        const std::string& value = (*list)[v];
        if (value.empty() || value.find_first_of(";= \t") != std::string::npos) {
          return "parameter '" + p.name + "': value '" + value +
                 "' is empty or holds ';', '=' or a space";
        }
        if (std::count(list->begin(), list->begin() + v, value)) {
          return "parameter '" + p.name + "' lists '" + value + "' twice";
        }
      }
    }
    for (const auto& value : p.values) {
      if (!p.choices.empty() && std::count(p.choices.begin(), p.choices.end(), value) == 0) {
        return "parameter '" + p.name + "': value '" + value + "' is not among its choices";
      }
    }
  }
  return "";
}

}  // namespace kb
