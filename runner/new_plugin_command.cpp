// `kbench new-plugin NAME --family F [--host]`: a folder with a CMakeLists.txt and one kernel
// file that builds against an installed kbench (find_package(kbench)) and passes
// `kbench validate` as written — a correct, simple strategy for the author to make fast.
#include "commands.hpp"

#include "input_error.hpp"
#include "options.hpp"

#include <boost/filesystem.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <regex>

namespace kb {
namespace {

// The kernel and its launch, per family and device. @NAME@ is the strategy name.
const std::map<std::string, std::string> kCudaTemplates = {
    {"transpose", R"kb(#include <kbench/families/transpose.hpp>

namespace {

// One thread per element: coalesced reads, strided writes. Make it fast.
template <typename T>
__global__ void @NAME@_kernel(const T* in, T* out, std::int64_t rows, std::int64_t cols) {
  const std::int64_t c = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  const std::int64_t r = blockIdx.y * std::int64_t{blockDim.y} + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

template <typename T>
struct Strategy {
  static void launch(const kb::transpose::Problem<T>& p, kb::Launcher& launch) {
    const dim3 grid((p.cols + p.block.x - 1) / p.block.x, (p.rows + p.block.y - 1) / p.block.y);
    launch(@NAME@_kernel<T>, grid, p.block, 0, p.in(), p.out(), p.rows, p.cols);
  }
};

}  // namespace

KBENCH_PLUGIN(kb::transpose::Problem, Strategy, kb::AllDTypes,
              {"transpose/@NAME@", "1", "@NAME@: one thread per element (scaffold)",
               KB_DEVICE_CUDA, 0, "", kb::transpose::accepts_any_2d_block})
)kb"},
    {"matmul", R"kb(#include <kbench/families/matmul.hpp>

namespace {

// One thread per element of C (row-major C = A * B). Make it fast.
template <typename T>
__global__ void @NAME@_kernel(const T* a, const T* b, T* c, std::int64_t m, std::int64_t n,
                              std::int64_t k) {
  const std::int64_t col = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  const std::int64_t row = blockIdx.y * std::int64_t{blockDim.y} + threadIdx.y;
  if (row >= m || col >= n) return;
  T sum = 0;
  for (std::int64_t i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = sum;
}

template <typename T>
struct Strategy {
  static void launch(const kb::matmul::Problem<T>& p, kb::Launcher& launch) {
    const dim3 grid((p.N + p.block.x - 1) / p.block.x, (p.M + p.block.y - 1) / p.block.y);
    launch(@NAME@_kernel<T>, grid, p.block, 0, p.a(), p.b(), p.c(), p.M, p.N, p.K);
  }
};

}  // namespace

KBENCH_PLUGIN(kb::matmul::Problem, Strategy, kb::FloatDTypes,
              {"matmul/@NAME@", "1", "@NAME@: one thread per element of C (scaffold)",
               KB_DEVICE_CUDA, 0, "", kb::matmul::accepts_2d_block})
)kb"},
    {"reduce", R"kb(#include <kbench/families/reduce.hpp>

namespace {

using namespace kb::reduce;

// One thread adds everything, in order. Make it fast (see plugins/reduce/ in kbench).
template <typename T>
__global__ void @NAME@_kernel(const T* in, std::int64_t n, Op op, Result<T>* out) {
  Result<T> sum = 0;
  for (std::int64_t i = 0; i < n; ++i) sum += term(op, static_cast<Result<T>>(in[i]));
  *out = sum;
}

template <typename T>
struct Strategy {
  static void launch(const Problem<T>& p, kb::Launcher& launch) {
    launch(@NAME@_kernel<T>, 1, 1, 0, p.in(), p.n, p.op, p.out());
  }
};

}  // namespace

KBENCH_PLUGIN(kb::reduce::Problem, Strategy, kb::AllDTypes,
              {"reduce/@NAME@", "1", "@NAME@: one thread, in order (scaffold)", KB_DEVICE_CUDA,
               KB_FLAG_OWN_LAUNCH_SHAPE, kb::reduce::kOps})
)kb"}};

const std::map<std::string, std::string> kHostTemplates = {
    {"transpose", R"kb(#include <kbench/families/transpose.hpp>

namespace {

template <typename T>
struct Strategy {
  static void launch(const kb::transpose::Problem<T>& p, kb::Launcher&) {
    for (std::int64_t r = 0; r < p.rows; ++r) {
      for (std::int64_t c = 0; c < p.cols; ++c) p.out()[c * p.rows + r] = p.in()[r * p.cols + c];
    }
  }
};

}  // namespace

KBENCH_PLUGIN(kb::transpose::Problem, Strategy, kb::AllDTypes,
              {"transpose/@NAME@", "1", "@NAME@: host loop (scaffold)", KB_DEVICE_HOST,
               KB_FLAG_OWN_LAUNCH_SHAPE})
)kb"},
    {"matmul", R"kb(#include <kbench/families/matmul.hpp>

namespace {

template <typename T>
struct Strategy {
  static void launch(const kb::matmul::Problem<T>& p, kb::Launcher&) {
    for (std::int64_t i = 0; i < p.M; ++i) {
      for (std::int64_t j = 0; j < p.N; ++j) {
        double sum = 0;
        for (std::int64_t k = 0; k < p.K; ++k) sum += double(p.a()[i * p.K + k]) * p.b()[k * p.N + j];
        p.c()[i * p.N + j] = static_cast<T>(sum);
      }
    }
  }
};

}  // namespace

KBENCH_PLUGIN(kb::matmul::Problem, Strategy, kb::FloatDTypes,
              {"matmul/@NAME@", "1", "@NAME@: host loop (scaffold)", KB_DEVICE_HOST,
               KB_FLAG_OWN_LAUNCH_SHAPE, "", kb::matmul::accepts_host_size})
)kb"},
    {"reduce", R"kb(#include <kbench/families/reduce.hpp>

namespace {

using namespace kb::reduce;

template <typename T>
struct Strategy {
  static void launch(const Problem<T>& p, kb::Launcher&) {
    Result<T> sum = 0;
    for (std::int64_t i = 0; i < p.n; ++i) sum += term(p.op, static_cast<Result<T>>(p.in()[i]));
    *p.out() = sum;
  }
};

}  // namespace

KBENCH_PLUGIN(kb::reduce::Problem, Strategy, kb::AllDTypes,
              {"reduce/@NAME@", "1", "@NAME@: host loop (scaffold)", KB_DEVICE_HOST,
               KB_FLAG_OWN_LAUNCH_SHAPE, kb::reduce::kOps})
)kb"}};

std::string fill(std::string text, const std::string& name) {
  return std::regex_replace(text, std::regex("@NAME@"), name);
}

void write_file(const boost::filesystem::path& path, const std::string& text) {
  std::ofstream out(path.string());
  out << text;
  if (!out) throw InputError("cannot write '" + path.string() + "'");
}

}  // namespace

int new_plugin_command(const std::vector<std::string>& args) {
  std::string name, family, output;
  bool host = false;
  po::options_description description("kbench new-plugin NAME --family F");
  description.add_options()("help,h", "show this help")(
      "name", po::value(&name)->required(), "strategy name: letters, digits, _")(
      "family", po::value(&family)->required(), "transpose, matmul or reduce")(
      "host", po::bool_switch(&host), "a host (CPU) plugin instead of a CUDA one")(
      "output,o", po::value(&output), "folder to create (default: ./NAME)");
  po::positional_options_description positional;
  positional.add("name", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(description).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << "Usage: kbench new-plugin NAME --family F [--host] [-o DIR]\n" << description;
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string("kbench new-plugin: ") + e.what());
  }
  if (!std::regex_match(name, std::regex("[A-Za-z][A-Za-z0-9_]*"))) {
    throw InputError("plugin name '" + name + "' must be letters, digits and _, starting with a letter");
  }
  const auto& templates = host ? kHostTemplates : kCudaTemplates;
  if (!templates.count(family)) {
    throw InputError("new-plugin scaffolds the families transpose, matmul and reduce (got '" +
                     family + "')");
  }
  namespace fs = boost::filesystem;
  const fs::path folder = output.empty() ? fs::path(name) : fs::path(output);
  if (fs::exists(folder)) throw InputError("'" + folder.string() + "' already exists");
  fs::create_directories(folder);
  const std::string source = name + (host ? ".cpp" : ".cu");
  write_file(folder / "CMakeLists.txt",
             "# " + family + "/" + name + ", a kbench plugin built out of tree:\n"
             "#   cmake -S . -B build -DCMAKE_PREFIX_PATH=<kbench prefix> && cmake --build build\n"
             "#   kbench validate build/" + name + ".so\n"
             "#   kbench run --plugins build --family " + family + "\n"
             "cmake_minimum_required(VERSION 3.24)\n"
             "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n  set(CMAKE_CUDA_ARCHITECTURES 90)\nendif()\n"
             "project(" + name + " LANGUAGES CXX" + (host ? "" : " CUDA") + ")\n"
             "set(CMAKE_CXX_STANDARD 17)\nset(CMAKE_CUDA_STANDARD 17)\n"
             "find_package(kbench REQUIRED)\n"
             "kbench_add_plugin(" + name + " SOURCES " + source + ")\n");
  write_file(folder / source, "// " + family + "/" + name +
                                  ": written by `kbench new-plugin`; the kernel is yours to change.\n" +
                                  fill(templates.at(family), name));
  std::cout << "wrote " << (folder / "CMakeLists.txt").string() << " and "
            << (folder / source).string() << "\nbuild: cmake -S " << folder.string() << " -B "
            << (folder / "build").string() << " -DCMAKE_PREFIX_PATH=<kbench prefix> && cmake --build "
            << (folder / "build").string() << "\n";
  return 0;
}

}  // namespace kb
