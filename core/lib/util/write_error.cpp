#include "util/write_error.hpp"

#include "util/input_error.hpp"

#include <cerrno>
#include <cstring>

namespace kb {

bool storage_failure(int error) {
  return error == ENOSPC || error == EDQUOT || error == EIO || error == EFBIG;
}

void throw_file_error(const std::string& doing, const std::string& what, const std::string& path,
                      int error) {
  const std::string line =
      "cannot " + doing + " " + what + " '" + path + "': " + std::strerror(error);
  if (storage_failure(error)) throw WriteError(line);
  throw InputError(line);
}

}  // namespace kb
