#include "util/short_of_resources.hpp"

#include <cerrno>
#include <cstring>

namespace kb {

ShortOfResources::ShortOfResources(const std::string& what, const std::string& why,
                                   const std::string& remedy)
    : std::runtime_error("kbench cannot " + what + " (" + why +
                         "): kbench's own trouble, not a plugin's (" + remedy + ")") {}

bool is_resource_shortage(int error) {
  return error == EMFILE || error == ENFILE || error == ENOMEM || error == EAGAIN;
}

bool names_resource_shortage(const std::string& text) {
  for (const int error : {EMFILE, ENFILE, ENOMEM}) {
    if (text.find(std::strerror(error)) != std::string::npos) return true;
  }
  return false;
}

}  // namespace kb
