// What fails because kbench's own limits ran out (descriptors, processes, memory): said as
// kbench's trouble, never blamed on a plugin or its file, and it ends the command (exit 3).
#pragma once

#include <stdexcept>
#include <string>

namespace kb {

class ShortOfResources : public std::runtime_error {
 public:
  // "kbench cannot <what> (<why>): kbench's own trouble, not a plugin's (<remedy>)".
  ShortOfResources(const std::string& what, const std::string& why,
                   const std::string& remedy = "its limits: ulimit -n, ulimit -u");
};

// errno values that mean a limit of this process or system, not a fault of what was asked.
bool is_resource_shortage(int error);

// Whether a library's error text (dlerror) reports one of those errno values.
bool names_resource_shortage(const std::string& text);

}  // namespace kb
