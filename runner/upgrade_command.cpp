// `kbench upgrade FILE...`: results and samples files an older kbench wrote, rewritten in place
// under this kbench's header (store/file_upgrade.hpp), so that runs append to them again. One line
// per file; exit 0 when every file is current now, else the worst of 2 (a file left as it is:
// no older kbench's file, or in use) and 4 (a file that could not be written).
#include "commands.hpp"
#include "exit_codes.hpp"
#include "interruption.hpp"
#include "options.hpp"
#include "store/file_schema.hpp"
#include "store/file_upgrade.hpp"
#include "util/input_error.hpp"
#include "util/terminal_text.hpp"
#include "util/write_error.hpp"

#include <boost/filesystem/exception.hpp>

#include <algorithm>
#include <iostream>

namespace kb {
namespace {

// While it lives, the signals that would end kbench wait: the upgraded copy of the file in hand
// is renamed over it or removed, never left beside it (`.FILE.upgrade-XXXXXX`) by a SIGTERM.
class HeldSignals {
 public:
  HeldSignals() {
    const sigset_t held = interruption_signals();
    sigprocmask(SIG_BLOCK, &held, &before_);
  }
  ~HeldSignals() { sigprocmask(SIG_SETMASK, &before_, nullptr); }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  sigset_t before_;
};

}  // namespace

int upgrade_command(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  po::options_description description("kbench upgrade FILE...");
  description.add_options()
      ("help,h", "show this help")
      ("file", po::value(&files)->composing(), "results or samples CSV files (positional)");
  po::positional_options_description positional;
  positional.add("file", -1);
  po::variables_map vm;
  try {
    constexpr int kWholeNames =
        po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(args)
                  .style(kWholeNames)
                  .options(description)
                  .positional(positional)
                  .run(),
              vm);
    if (!vm.count("help")) po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(std::string("kbench upgrade: ") + e.what());
  }
  if (vm.count("help")) {
    std::cout << "Usage: kbench upgrade FILE...\n"
                 "Rewrites results and samples files written by an older kbench under this "
                 "kbench's header, so that\n`kbench run --output FILE` appends to them again: "
                 "the columns they lack are added as empty\ncells, every other byte of every row "
                 "kept. Safe beside runs (it takes their lock) and atomic\n(a copy renamed over "
                 "the file). A file already current is left as it is.\n\n"
              << description;
    return kExitOk;
  }
  if (files.empty()) throw InputError("name the results or samples files to upgrade");

  handle_interruptions();
  int code = kExitOk;
  for (const auto& file : files) {
    if (interrupted()) {
      std::cerr << "kbench: interrupted; " << terminal_text(file)
                << " and the files after it were left as they are\n";
      return kExitInterrupted;
    }
    // Each file on its own: one that cannot be upgraded leaves the others to be.
    const HeldSignals held;
    try {
      const UpgradeOutcome outcome = upgrade_file(file);
      if (outcome.upgraded) {
        std::cout << "upgraded " << terminal_text(file) << ": added column"
                  << (outcome.added.size() == 1 ? " " : "s ") << name_list(outcome.added) << " ("
                  << outcome.rows << (outcome.rows == 1 ? " row" : " rows") << ")\n";
      } else if (outcome.what.empty()) {
        std::cout << terminal_text(file) << ": empty; left as it is (a run writes its header)\n";
      } else {
        std::cout << terminal_text(file) << ": already current (a " << outcome.what
                  << " of this kbench); left as it is\n";
      }
      std::cout.flush();
    } catch (const InputError& e) {
      std::cerr << "kbench: error: " << terminal_text(e.what()) << "\n";
      code = std::max(code, kExitBadInput);
    } catch (const WriteError& e) {
      std::cerr << "kbench: " << terminal_text(e.what()) << "\n";
      code = std::max(code, kExitWriteFailed);
    } catch (const boost::filesystem::filesystem_error& e) {
      std::cerr << "kbench: error: cannot use '" << terminal_text(e.path1().string())
                << "': " << e.code().message() << "\n";
      code = std::max(code, kExitBadInput);
    }
  }
  if (interrupted()) {
    std::cerr << "kbench: interrupted as the last file was done; each file is as its line says\n";
    return kExitInterrupted;
  }
  return code;
}

}  // namespace kb
