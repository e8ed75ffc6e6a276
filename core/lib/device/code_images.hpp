// The CUDA code a file holds, as the driver finds it there: a host library's embedded fat binaries
// (ELF section .nv_fatbin, one per translation unit, each a list of cubins and PTX), a fat binary,
// a cubin, or PTX text. Read by the parent from a plugin it never loads: the bytes are untrusted, so
// every offset is checked, and nothing is run or decompressed (a compressed image's architecture is
// in its entry's header; only who made it is then unknown).
#pragma once

#include "device/cuda_code.hpp"

#include <string>
#include <vector>

namespace kb {

// The images of one translation unit: the driver loads one of them (cuda_code.hpp).
using CodeUnit = std::vector<CodeImage>;

// The units of a kernel file's bytes (a fat binary, a cubin, PTX text); none when they hold no
// CUDA code.
std::vector<CodeUnit> read_code_units(const std::string& bytes);

// The units a shared library embeds, reading only its ELF headers and the section; none when it
// cannot be read or is no host ELF library. A unit without kernels (a translation unit of host
// code calling a library, what a device-link step embeds) is left out: no launch needs it.
std::vector<CodeUnit> read_code_units_of_file(const std::string& path);

// The fat binaries a shared library embeds, each whole, as the driver would be handed them (the
// GPU tests load them to hold the choice above to the driver's).
std::vector<std::string> read_fatbins_of_file(const std::string& path);

}  // namespace kb
