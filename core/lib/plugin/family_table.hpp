// The families the runner knows: each as its own library describes it (a KernelFamily, ABI
// version 3), else as a plugin of it does (kb_family, ABI version 2). The runner knows no family
// of its own: a family nobody describes is swept from the sizes the user gives, and reports infer
// its headline from its rows.
#pragma once

#include "plugin/plugin_info.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kb {

class FamilyTable {
 public:
  FamilyTable() = default;
  // A family's library defines it; else the first plugin (in discovery order) that describes it.
  // A plugin that describes it differently leaves a warning naming both files.
  FamilyTable(const std::vector<std::shared_ptr<const PluginInfo>>& families,
              const std::vector<std::shared_ptr<const PluginInfo>>& plugins);

  const FamilyInfo* find(const std::string& family) const;  // null when no plugin describes it
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  std::map<std::string, FamilyInfo> families_;
  std::map<std::string, std::string> described_by_;  // family -> file
  std::vector<std::string> warnings_;
};

}  // namespace kb
