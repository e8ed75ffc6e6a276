#include "plugin_info.hpp"

#include "plugin_text.hpp"

namespace kb {

PluginInfo describe_plugin(const KernelPlugin& plugin, const std::string& file) {
  const auto text = [](const char* s) { return plugin_text(s, kPluginStringCapacity); };
  PluginInfo info;
  info.file = file;
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
  return info;
}

Record to_record(const PluginInfo& info) {
  return {{"file", info.file},
          {"name", info.name},
          {"family", info.family},
          {"version", info.version},
          {"description", info.description},
          {"ops", info.ops},
          {"cuda_archs", info.cuda_archs},
          {"device", std::to_string(static_cast<int>(info.device))},
          {"dtypes", std::to_string(info.dtypes)},
          {"flags", std::to_string(info.flags)},
          {"accepts", info.has_accepts ? "1" : "0"}};
}

PluginInfo plugin_info_from_record(const Record& r) {
  PluginInfo info;
  info.file = r.at("file");
  info.name = r.at("name");
  info.family = r.at("family");
  info.version = r.at("version");
  info.description = r.at("description");
  info.ops = r.at("ops");
  info.cuda_archs = r.at("cuda_archs");
  info.device = static_cast<kb_device_kind>(std::stoi(r.at("device")));
  info.dtypes = static_cast<std::uint32_t>(std::stoul(r.at("dtypes")));
  info.flags = static_cast<std::uint32_t>(std::stoul(r.at("flags")));
  info.has_accepts = r.at("accepts") == "1";
  return info;
}

}  // namespace kb
