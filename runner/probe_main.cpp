// `kbench probe`: the child that runs a plugin's untrusted code for the parent (see
// plugin_probe.hpp). Answers each `load` record with the plugin's descriptor (`plugin`) or the
// loader's reason (`refused`), and each `accepts` record with the plugin's `verdict`. Before each
// step that runs plugin code it says so (`step`), so that the parent can name the step a crash
// or a hang happened in.
#include "commands.hpp"
#include "plugin/loader.hpp"
#include "protocol/codec.hpp"
#include "protocol/sandbox.hpp"
#include "protocol/sequence.hpp"
#include "util/plugin_text.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>

#include <map>

namespace kb {
namespace {

constexpr int kAnswersFd = 3;

// The number of the request being answered (sequence.hpp), copied into each record sent for it.
std::uint64_t g_sequence = 0;

void send(const std::string& kind, Record record) {
  set_sequence(record, g_sequence);
  if (!write_text(kAnswersFd, encode_record(kind, record))) _exit(0);  // the parent is gone
}

}  // namespace

int probe_command(const std::vector<std::string>&) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // What a plugin prints while it loads must not reach the parent's terminal uninvited.
  if (const int null = open("/dev/null", O_WRONLY); null >= 0) dup2(null, 1), close(null);
  enter_sandbox();  // loading runs the plugins' static constructors and kbench_plugin()

  std::map<std::string, std::shared_ptr<const LoadedPlugin>> loaded;  // by file
  const auto step = [](const char* name) { send("step", {{"name", name}}); };
  LineReader input(0);
  std::string line, kind;
  Record fields;
  while (input.read_line(line, -1) == LineReader::Status::line) {
    if (!decode_record(line, kind, fields) || !fields.count("file")) continue;
    g_sequence = take_sequence(fields).value_or(0);
    const std::string file = fields["file"];
    fields.erase("file");
    auto plugin = loaded.find(file);
    if (plugin == loaded.end()) {
      try {
        plugin = loaded.emplace(file, load_plugin(file, step)).first;
      } catch (const LoadError& e) {
        send("refused", {{"reason", e.what()}});
        continue;
      }
    }
    if (kind == "load") {
      send("plugin", encode_plugin(plugin->second->info));
    } else if (kind == "accepts") {
      const CaseRequest request = decode_case(fields);
      const kb_case c = request.to_abi();
      kb_message why{};
      step("accepts()");
      const auto accepts = plugin->second->api ? plugin->second->api->accepts
                                               : plugin->second->family->accepts;
      const bool accepted = accepts == nullptr || accepts(&c, &why) != 0;
      send("verdict", {{"accepted", accepted ? "1" : "0"}, {"why", plugin_text(why.text)}});
    }
  }
  return 0;
}

}  // namespace kb
