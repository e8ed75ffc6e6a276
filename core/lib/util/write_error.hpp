// A file kbench writes (results, samples, a report, a JUnit file) that cannot be written: the
// disk is full, the quota reached, the device failed. The run or command stops with exit code 4
// and a line naming the file and the system's reason; the user's input was fine.
#pragma once

#include <stdexcept>
#include <string>

namespace kb {

class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether a failed open, write or close with this errno is the storage's fault (no space, quota,
// I/O error, file too large), not the path's.
bool storage_failure(int error);

// "cannot <doing> <what> '<path>': <reason>", thrown as a WriteError when the storage failed and
// as an InputError when the path cannot be used (no such folder, a folder, no permission, a loop
// of symbolic links, a name too long).
[[noreturn]] void throw_file_error(const std::string& doing, const std::string& what,
                                   const std::string& path, int error);

}  // namespace kb
