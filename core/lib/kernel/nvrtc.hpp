// NVRTC, loaded at run time (dlopen), as the NVML monitor is: a machine without the CUDA toolkit's
// libnvrtc still lists, runs .so plugins and kernel files in PTX or cubin; a .cu kernel file then
// gets one line saying what is missing. Compiling needs no device (PTX for a virtual
// architecture), so CI compiles kernel files too.
#pragma once

#include <string>
#include <vector>

namespace kb {

class Nvrtc {
 public:
  // The library, loaded once per process (KBENCH_NVRTC names a file to use instead); null with
  // the reason in `why` when it cannot be loaded.
  static const Nvrtc* instance(std::string* why);

  struct Result {
    bool ok = false;
    std::string log;      // the compiler's messages
    std::string ptx;      // PTX (always produced)
    std::string cubin;    // machine code, when compiled for a real architecture (sm_XX)
    // Each name expression's symbol ("_Z15transpose_tiledIfLi32ELi8EEvPKT_PS0_ii").
    std::vector<std::string> lowered;
  };
  // Compiles `source` (named `name` in messages) with `options`, asking for the symbol of each
  // of `expressions` (a kernel name or a template instance, "transpose_tiled<float, 32, 8>").
  Result compile(const std::string& source, const std::string& name,
                 const std::vector<std::string>& options,
                 const std::vector<std::string>& expressions) const;
  const std::string& version() const { return version_; }  // "13.0"

  struct Api;

 private:
  Nvrtc() = default;
  const Api* api_ = nullptr;
  std::string version_;
};

// The first error lines of a compiler's log, as one line: "bad.cu(7): error: identifier "x" is
// undefined; bad.cu(9): error: ... (3 errors)".
std::string first_errors(const std::string& log, std::size_t lines = 3);

}  // namespace kb
