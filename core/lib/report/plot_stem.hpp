// The file stem of a plot (STEM.gp, STEM.dat, STEM.png), from the names it shows: readable
// ("transpose_nvidia_h100"), and never shared by two plots of one report. Names that differ only
// in case or punctuation ("+cmd", "-cmd", "@cmd") read the same once made a file name; the first
// plot of a kbench process to claim such a stem keeps it, each other gets its own, the readable
// part followed by a hash of its names, so no plot overwrites another's files.
#pragma once

#include <string>

namespace kb {

// `kind` (e.g. "history", "scaling"; may be empty) and `name` (a family, a GPU model...): the
// stem "kind_name" in lower-case letters, digits and single underscores, unique in this process.
std::string plot_stem(const std::string& kind, const std::string& name);

}  // namespace kb
