// Writing a whole file kbench produces for a person or a tool (report.md, history.md, a plot's
// script and data, a JUnit file, a scaffold): every step is checked up to the close, so that a
// full disk is a failed command (WriteError, exit 4) and never a truncated file and exit 0.
#pragma once

#include <string>
#include <string_view>

namespace kb {

// Creates or replaces `path` with `text`. WriteError when the storage fails (at the open, a write
// or the close), InputError when the path cannot be a file; each names `what` and the path.
void write_output_file(const std::string& path, std::string_view text, const std::string& what);

// Creates `dir` and the folders above it where missing; InputError "cannot create WHAT folder
// 'DIR': ..." when the system refuses.
void create_output_folder(const std::string& dir, const std::string& what);

// Writes all of `text` to `fd`; false with errno set when the system refuses part of it. Honours
// KBENCH_TEST_WRITE_LIMIT=N (docs/nothing-lost.md): the process may write N bytes to its files in
// all; the write that crosses the limit writes what fits and fails with ENOSPC, as a full disk
// does, so CI exercises every write-error path on any filesystem.
bool write_all(int fd, std::string_view text);

// Whether both paths name one existing file: the same device and inode, through a link or any
// other spelling of the path.
bool same_file(const std::string& a, const std::string& b);

// Refuses, before it is opened (and truncated), an output that is a file the command reads:
// InputError "OPTION 'OUTPUT' is INPUT_NAMED" (e.g. "the --output file").
void refuse_output_onto_input(const std::string& option, const std::string& output,
                              const std::string& input, const std::string& input_named);

}  // namespace kb
