// The kernels of a PTX text and their parameters, read from `.entry NAME(.param ...)`: how a .cu
// (compiled by NVRTC, which writes PTX too) and a PTX file are held to their manifest's parameter
// list without a device. A cubin's or fatbin's parameters are the driver's to tell
// (cudaFuncGetParamInfo), once loaded.
#pragma once

#include "plugin/kernel_manifest.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kb {

// Every `.entry` name, in order.
std::vector<std::string> ptx_entries(const std::string& ptx);

// The parameters of entry `name`: sizes in bytes (`.b8 p[16]` is 16), and 'f' for .f32/.f64,
// 'i' for .u*/.s*, '?' otherwise. Nothing when the PTX has no such entry.
std::optional<std::vector<KernelParam>> ptx_entry_params(const std::string& ptx,
                                                         const std::string& name);

}  // namespace kb
