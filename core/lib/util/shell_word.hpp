// A word as a POSIX shell reads it back: the commands kbench prints for a person to paste (the
// resume command, `kbench upgrade FILE`) quote whatever a path or a run id holds.
#pragma once

#include <string>

namespace kb {

// `text` as is when it holds only characters no shell treats specially, else single-quoted.
std::string shell_word(const std::string& text);

}  // namespace kb
