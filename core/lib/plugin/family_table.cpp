#include "plugin/family_table.hpp"

#include <tuple>

namespace kb {
namespace {

auto fields(const FamilyInfo& f) {
  return std::tie(f.name, f.rank, f.shape_names, f.default_sizes, f.default_blocks,
                  f.default_dtypes, f.check_sizes, f.check_blocks, f.headline, f.reference);
}

}  // namespace

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
    } else if (fields(it->second) != fields(family)) {
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
