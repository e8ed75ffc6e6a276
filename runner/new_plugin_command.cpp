// `kbench new-plugin NAME --family F [--host]`: a folder with a CMakeLists.txt and one kernel
// file that builds against an installed kbench (find_package(kbench)) and passes
// `kbench validate` as written — a correct, simple version 3 strategy for the author to make
// fast. The strategy only computes: the family's own library (its referee) allocates the
// buffers, draws the inputs, counts the work and checks the output.
#include "commands.hpp"
#include "options.hpp"
#include "plugin/loader.hpp"
#include "util/input_error.hpp"
#include "util/output_file.hpp"
#include "util/shell_word.hpp"

#include <boost/filesystem.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <iostream>
#include <map>

namespace kb {
namespace {

// A family's scaffold is a file beside it: NAME.cu.in (CUDA) or NAME.host.cpp.in (host), with
// @NAME@ for the strategy's name. kbench's own families keep theirs in their folders
// (plugins/<family>/), installed with the SDK's headers and copied into the build tree; a family
// from outside ships its own next to its plugins and its family library, so `new-plugin`
// scaffolds it without kbench knowing the family.
struct TemplateDir {
  boost::filesystem::path path;
  std::string plugins;  // the plugin folder it belongs to; "" for kbench's own scaffolds
};

std::vector<TemplateDir> template_dirs(const std::vector<std::string>& plugin_dirs) {
  namespace fs = boost::filesystem;
  std::vector<TemplateDir> dirs = {
      {fs::path(executable_dir()) / ".." / "include" / "kbench" / "families" / "templates", ""},
      {fs::path(KBENCH_BUILD_TEMPLATES), ""}};
  for (const auto& dir : plugin_search_path(plugin_dirs)) {
    const std::string plugins = fs::absolute(dir).lexically_normal().string();
    dirs.push_back({fs::path(dir) / "templates", plugins});
    dirs.push_back({fs::path(dir), plugins});
  }
  return dirs;
}

std::string fill(std::string text, const std::string& name) {
  const std::string marker = "@NAME@";
  for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker, at + name.size())) {
    text.replace(at, marker.size(), name);
  }
  return text;
}

// Letters, digits and _ (and a letter first where `letter_first`), at most kMaxName characters:
// the name becomes a file, a CMake target and a C identifier. Checked in one pass (a regex match
// recursed once per character, and a long name overflowed the stack).
constexpr std::size_t kMaxName = 100;
bool identifier(const std::string& text, bool letter_first) {
  if (text.empty() || text.size() > kMaxName) return false;
  if (letter_first && !std::isalpha(static_cast<unsigned char>(text.front()))) return false;
  return std::all_of(text.begin(), text.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  });
}

void write_file(const boost::filesystem::path& path, const std::string& text) {
  write_output_file(path.string(), text, "scaffold file");
}

}  // namespace

int new_plugin_command(const std::vector<std::string>& args) {
  std::string name, family, output;
  bool host = false;
  std::vector<std::string> plugin_dirs;
  po::options_description description("kbench new-plugin NAME --family F");
  description.add_options()("help,h", "show this help")(
      "name", po::value(&name)->required(), "strategy name: letters, digits, _")(
      "family", po::value(&family)->required(),
      "the family: kbench's own (transpose, matmul, reduce) or one from outside whose folder "
      "(--plugins) holds its family library and a scaffold (FAMILY.cu.in beside them, or in "
      "templates/ there)")(
      "host", po::bool_switch(&host), "a host (CPU) plugin instead of a CUDA one")(
      "output,o", po::value(&output), "folder to create (default: ./NAME)");
  description.add(plugin_path_options(plugin_dirs));
  po::positional_options_description positional;
  positional.add("name", 1);
  po::variables_map vm;
  try {
    po::store(parse_command_line(args, description, positional), vm);
    if (vm.count("help")) {
      std::cout << "Usage: kbench new-plugin NAME --family F [--host] [-o DIR]\n" << description;
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string("kbench new-plugin: ") + e.what());
  }
  const auto shown = [](const std::string& text) {
    return text.size() <= 60 ? text
                             : text.substr(0, 60) + "... (" + std::to_string(text.size()) +
                                   " characters)";
  };
  if (!identifier(name, /*letter_first=*/true)) {
    throw InputError("plugin name '" + shown(name) + "' must be letters, digits and _, starting " +
                     "with a letter, at most " + std::to_string(kMaxName) + " characters");
  }
  if (!identifier(family, /*letter_first=*/false)) {
    throw InputError("family '" + shown(family) + "' must be letters, digits and _, at most " +
                     std::to_string(kMaxName) + " characters");
  }
  namespace fs = boost::filesystem;
  const std::string template_name = family + (host ? ".host.cpp.in" : ".cu.in");
  std::string scaffold;
  std::string looked;
  std::string family_dir;  // where an outside family's library is: the scaffold's folder
  for (const auto& dir : template_dirs(plugin_dirs)) {
    std::ifstream in((dir.path / template_name).string());
    if (in) {
      scaffold.assign(std::istreambuf_iterator<char>(in), {});
      family_dir = dir.plugins;
      break;
    }
    looked += (looked.empty() ? " " : ", ") + dir.path.lexically_normal().string();
  }
  if (scaffold.empty()) {
    throw InputError("no scaffold '" + template_name + "' for family '" + family +
                     "'; looked in" + looked);
  }
  const fs::path folder = output.empty() ? fs::path(name) : fs::path(output);
  if (fs::exists(folder)) throw InputError("'" + folder.string() + "' already exists");
  fs::create_directories(folder);
  const std::string source = name + (host ? ".cpp" : ".cu");
  // A family from outside is refereed by its own library: validate and run find it there.
  const std::string referee = family_dir.empty() ? "" : " --plugins " + shell_word(family_dir);
  write_file(folder / "CMakeLists.txt",
             "# " + family + "/" + name + ", a kbench strategy (plugin ABI version 3) built out of "
             "tree. The " + family + " family's\n"
             "# library is its referee: it owns the buffers, draws the inputs and checks the "
             "output.\n"
             "#   cmake -S . -B build -DCMAKE_PREFIX_PATH=<kbench prefix> && cmake --build build\n"
             "#   kbench validate build/" + name + ".so" + referee + "\n"
             "#   kbench run --plugins build" + referee + " --family " + family + "\n"
             "cmake_minimum_required(VERSION 3.24)\n"
             "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n  set(CMAKE_CUDA_ARCHITECTURES 90)\nendif()\n"
             "project(" + name + " LANGUAGES CXX" + (host ? "" : " CUDA") + ")\n"
             "set(CMAKE_CXX_STANDARD 17)\nset(CMAKE_CUDA_STANDARD 17)\n"
             "find_package(kbench REQUIRED)\n"
             "kbench_add_plugin(" + name + " SOURCES " + source + ")\n");
  write_file(folder / source, "// " + family + "/" + name +
                                  ": written by `kbench new-plugin`; the kernel is yours to change.\n" +
                                  fill(scaffold, name));
  // The commands a person pastes: each path a shell word, whatever the folder's name holds.
  const auto word = [](const fs::path& path) { return shell_word(path.string()); };
  std::cout << "wrote " << (folder / "CMakeLists.txt").string() << " and "
            << (folder / source).string() << "\nbuild: cmake -S " << word(folder) << " -B "
            << word(folder / "build") << " -DCMAKE_PREFIX_PATH=<kbench prefix> && cmake --build "
            << word(folder / "build") << "\n"
            << "check: kbench validate " << word(folder / "build" / (name + ".so")) << referee
            << "\n";
  return 0;
}

}  // namespace kb
