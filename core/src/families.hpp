// What the runner knows about each in-tree family: the rank of its shapes and the default sweep
// a plain `kbench run` uses. Families it does not know (drop-in plugins of a new family) take the
// rank of the sizes given on the command line.
#pragma once

#include <optional>
#include <string>

namespace kb {

struct FamilyDefaults {
  const char* name;
  int rank;
  const char* sizes;
  const char* blocks;
  const char* dtypes;
};

std::optional<FamilyDefaults> family_defaults(const std::string& family);

}  // namespace kb
