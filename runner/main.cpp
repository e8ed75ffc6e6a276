// kbench: registry and runner for CUDA kernel experiments.
#include "commands.hpp"
#include "exit_codes.hpp"
#include "input_error.hpp"
#include "shared_csv_file.hpp"

#include <exception>
#include <new>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage =
    "Usage: kbench <command> [options]\n"
    "\n"
    "Commands:\n"
    "  list     the plugins found and what they support\n"
    "  run      run a sweep and append the results to a CSV file\n"
    "  compare  the medians of the same cases side by side across GPUs, runs or plugins\n"
    "  report   a markdown report with PNG plots (gnuplot) from results CSV files\n"
    "  validate check a plugin file: ABI, metadata, and a small verified case of each dtype\n"
    "  new-plugin  write a plugin project that builds out of tree against an installed kbench\n"
    "\n"
    "kbench <command> --help shows the command's options.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << kUsage;
    return kb::kExitBadInput;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (command == "list") return kb::list_command(args);
    if (command == "run") return kb::run_command(args);
    if (command == "compare") return kb::compare_command(args);
    if (command == "report") return kb::report_command(args);
    if (command == "worker") return kb::worker_command(args);
    if (command == "probe") return kb::probe_command(args);
    if (command == "validate") return kb::validate_command(args);
    if (command == "new-plugin") return kb::new_plugin_command(args);
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kUsage;
      return 0;
    }
    std::cerr << "kbench: error: unknown command '" << command << "'\n" << kUsage;
    return kb::kExitBadInput;
  } catch (const kb::InputError& e) {
    std::cerr << "kbench: error: " << e.what() << "\n";
    return kb::kExitBadInput;
  } catch (const kb::WriteError& e) {
    std::cerr << "kbench: " << e.what() << "\n";
    return kb::kExitWriteFailed;
  } catch (const std::bad_alloc&) {
    std::cerr << "kbench: internal error: out of memory\n";
    return kb::kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "kbench: internal error: " << e.what() << "\n";
    return kb::kExitInternal;
  } catch (...) {
    std::cerr << "kbench: internal error: unknown exception\n";
    return kb::kExitInternal;
  }
}
