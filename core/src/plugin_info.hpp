// What the parent knows about a plugin: plain copies of its descriptor, read in a probe process
// (see plugin_probe.hpp), so the parent never runs a plugin's code nor holds its library. Every
// string is bounded and cleaned (plugin_text.hpp).
#pragma once

#include "protocol.hpp"

#include <kbench/plugin.h>

#include <cstdint>
#include <string>

namespace kb {

struct PluginInfo {
  std::string file;  // the shared library it came from
  std::string name, family, version, description, ops, cuda_archs;
  kb_device_kind device = KB_DEVICE_HOST;
  std::uint32_t dtypes = 0;
  std::uint32_t flags = 0;
  bool has_accepts = false;  // false: every case of its dtypes and ops is accepted unasked
};

// A copy of `plugin`'s descriptor, each string read no further than kPluginStringCapacity.
PluginInfo describe_plugin(const KernelPlugin& plugin, const std::string& file);

Record to_record(const PluginInfo& info);
PluginInfo plugin_info_from_record(const Record& record);  // throws std::out_of_range when incomplete

}  // namespace kb
