// What a cubin holds, read from its ELF without a device: its kernels (the symbol table's entry
// functions), each one's parameter sizes (.nv.info.KERNEL, as the driver reads them), registers
// (.nv.info) and machine code (.text.KERNEL), and which kernel a device variable points to (its
// relocation). How a cubin's entry and parameters are held to the manifest anywhere, how nvcc's
// kernel for a name expression is found, and how two compilers' code for one kernel is compared.
#pragma once

#include "plugin/kernel_manifest.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kb {

struct CubinKernel {
  std::string symbol;     // "_Z15transpose_tiledIfLi32ELi4EEvPKT_PS0_xx", or the extern "C" name
  std::string demangled;  // "void transpose_tiled<float, 32, 4>(float const*, float*, long long, long long)"
  std::vector<KernelParam> params;  // sizes ('?' kinds); empty with params_known false
  bool params_known = false;
  int registers = -1;   // -1: not recorded
  std::string code;     // the machine code (the .text section's bytes)
};

// Nothing when `image` is no 64-bit little-endian ELF (a fatbin, a cubin cut short).
std::optional<std::vector<CubinKernel>> cubin_kernels(const std::string& image);

// The symbol the device variable `variable` is initialised to point to ("" when there is none):
// how a name expression's kernel is found in nvcc's cubin (kernel_build.cpp).
std::string cubin_pointee(const std::string& image, const std::string& variable);

// The kernel `entry` names among `kernels`: its symbol (mangled or extern "C"), or its name as
// written in the source — "transpose_tile", "ns::kernel", "sgemm<128, 128, 8>" — when one kernel
// demangles to it (spaces ignored). "" with the reason in `why` when none does, or several do.
std::string find_cubin_kernel(const std::vector<CubinKernel>& kernels, const std::string& entry,
                              std::string& why);

}  // namespace kb
