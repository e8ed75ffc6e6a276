#include "plugin/family_table.hpp"

namespace kb {

FamilyTable::FamilyTable(const std::vector<std::shared_ptr<const PluginInfo>>& family_libraries,
                         const std::vector<std::shared_ptr<const PluginInfo>>& plugins) {
  std::vector<std::shared_ptr<const PluginInfo>> describers = family_libraries;
  describers.insert(describers.end(), plugins.begin(), plugins.end());
  for (const auto& plugin : describers) {
    if (!plugin->family_info) continue;
    const FamilyInfo& family = *plugin->family_info;
    const auto [it, inserted] = families_.emplace(family.name, family);
    if (inserted) {
      described_by_[family.name] = plugin->file;
    } else if (!same_description(it->second, family)) {
      warnings_.push_back("family '" + family.name + "' is described differently by " +
                          plugin->file + " than by " + described_by_[family.name] +
                          "; using the latter");
    }
  }
}

const FamilyInfo* FamilyTable::find(const std::string& family) const {
  const auto it = families_.find(family);
  return it == families_.end() ? nullptr : &it->second;
}

}  // namespace kb
