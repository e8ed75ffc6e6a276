#include "referee/referee_service.hpp"

#include "plugin/loader.hpp"
#include "protocol/child_answers.hpp"
#include "referee/family_case.hpp"
#include "util/plugin_text.hpp"

#include <kbench/support/error.hpp>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kb {
namespace {

// One worker's channel and the case it runs.
struct Connection {
  PacketChannel channel;
  bool open = true;
  std::optional<RefereeCaseSpec> spec;  // announced by the parent, not yet created
  SpareOperands spare;  // host operands kept for later cases; before `running`, which keeps its own
  std::unique_ptr<FamilyCase> running;
  RefereeVerdict verdict;
};

class Referee {
 public:
  Referee(PacketChannel control, int device) : control_(std::move(control)), device_(device) {}

  void serve() {
    while (true) {
      std::vector<pollfd> ready = {{control_.fd(), POLLIN, 0}};
      std::vector<int> ids;
      for (auto& [id, connection] : connections_) {
        if (!connection.open) continue;
        ready.push_back({connection.channel.fd(), POLLIN, 0});
        ids.push_back(id);
      }
      if (::poll(ready.data(), ready.size(), -1) < 0) continue;
      if (ready[0].revents != 0 && !serve_control()) return;
      for (std::size_t i = 1; i < ready.size(); ++i) {
        if (ready[i].revents == 0) continue;
        const auto it = connections_.find(ids[i - 1]);
        if (it != connections_.end()) serve_worker(it->second);
      }
    }
  }

 private:
  // False once the parent is gone.
  bool serve_control() {
    std::string kind;
    Record fields;
    std::vector<OwnedFd> fds;
    const auto status = control_.receive(kind, fields, fds);
    if (status == PacketChannel::Status::ended) return false;
    if (status != PacketChannel::Status::record) return true;
    if (kind == "connect" && fds.size() == 1) {
      const int id = next_id_++;
      connections_[id].channel = PacketChannel(fds[0].release());
      return control_.send("connected", encode_connection(id));
    }
    Connection* connection = find(fields);
    if (connection == nullptr) return control_.send("refused", encode_reason("no such connection"));
    if (kind == "case") {
      try {
        Record spec = fields;
        spec.erase("connection");
        connection->spec = decode_case_spec(spec);
      } catch (const std::exception& e) {
        return control_.send("refused", encode_reason(e.what()));
      }
      connection->running.reset();
      connection->verdict = RefereeVerdict{};
      return control_.send("ready", encode_bare());
    }
    if (kind == "verdict") {
      const Record verdict = encode_verdict(connection->verdict);
      finish(*connection);
      connection->verdict = RefereeVerdict{};
      connection->spec.reset();
      return control_.send("verdict", verdict);
    }
    if (kind == "disconnect") {
      finish(*connection);
      connections_.erase(std::stoi(fields.at("connection")));
      return control_.send("disconnected", encode_bare());
    }
    return control_.send("refused", encode_reason("unknown request '" + kind + "'"));
  }

  Connection* find(const Record& fields) {
    const auto field = fields.find("connection");
    if (field == fields.end()) return nullptr;
    const auto it = connections_.find(std::atoi(field->second.c_str()));
    return it == connections_.end() ? nullptr : &it->second;
  }

  void finish(Connection& connection) {
    connection.running.reset();
    // The finished case's standard output goes: a family prints nowhere between cases.
    if (const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC); null >= 0) {
      std::fflush(stdout);
      ::dup2(null, STDOUT_FILENO);
      ::close(null);
    }
  }

  // `failure` told to the worker; the case's verdict keeps its first failure, in the row's words.
  void fail(Connection& connection, const RefereeFailure& failure, const std::string& row_words) {
    if (connection.verdict.failure_status == KB_OK) {
      connection.verdict.failure_status = failure.status;
      connection.verdict.failure = row_words;
    }
    connection.channel.send("failed", encode_failure(failure));
  }

  // A request the worker may not make now: answered, and the case's verdict says so.
  void out_of_turn(Connection& connection, const std::string& what) {
    fail(connection, {KB_ERROR, "referee", "asked " + what}, "the referee was asked " + what);
  }

  void serve_worker(Connection& connection) {
    std::string kind;
    Record fields;
    std::vector<OwnedFd> fds;
    const auto status = connection.channel.receive(kind, fields, fds);
    if (status == PacketChannel::Status::ended) {
      connection.open = false;
      connection.running.reset();
      connection.spare.clear();
      return;
    }
    if (status != PacketChannel::Status::record) {
      out_of_turn(connection, "with a malformed request");
      return;
    }
    try {
      if (kind == "create") {
        decode_bare(fields, "create");
        return create(connection, fds);
      }
      if (!connection.running) return out_of_turn(connection, "'" + kind + "' before its case");
      FamilyCase& c = *connection.running;
      kb_message message{};
      if (kind == "draw") {
        return answer_step(connection, c.draw(decode_draw_request(fields), message), "family draw",
                           message);
      }
      if (kind == "poison") {
        decode_bare(fields, "poison");
        return answer_step(connection, c.poison(message), "poison", message);
      }
      if (kind == "check") {
        const std::string name = decode_check_request(fields);
        if (name != checks::kTimedLaunch && name != checks::kFreshInputs &&
            name != checks::kUnpoisonedLaunch) {
          return out_of_turn(connection, "for an unknown check");
        }
        connection.channel.send("checked", encode_check_answer(c.check(name)));
        return;
      }
      if (kind == "inputs") {
        connection.channel.send("checked",
                                encode_check_answer(c.inputs_unchanged(decode_inputs_request(fields))));
        return;
      }
      if (kind == "same_output") {
        decode_bare(fields, "same_output");
        connection.channel.send("checked", encode_check_answer(c.same_output()));
        return;
      }
      if (kind == "destroy") {
        decode_bare(fields, "destroy");
        connection.running.reset();
        connection.channel.send("done", encode_bare());
        return;
      }
      out_of_turn(connection, "'" + kind + "', which it does not know");
    } catch (const ProtocolError& e) {
      out_of_turn(connection, std::string("with a malformed request: ") + e.what());
    } catch (const std::exception& e) {
      // The referee's own CUDA calls failed: the device is beyond use for this case.
      fail(connection, {KB_ERROR, "referee", e.what()}, std::string("referee: ") + e.what());
    }
  }

  void answer_step(Connection& connection, kb_status status, const char* stage,
                   const kb_message& message) {
    if (status == KB_OK) {
      connection.channel.send("done", encode_bare());
      return;
    }
    const std::string words = plugin_text(message.text);
    fail(connection, {status, stage, words}, std::string(stage) + ": " + words);
  }

  void create(Connection& connection, std::vector<OwnedFd>& fds) {
    if (!connection.spec || connection.running) {
      return out_of_turn(connection, "to create a case the parent did not announce");
    }
    const RefereeCaseSpec& spec = *connection.spec;
    const KernelFamily* family = load_family(spec.family_file);
    if (family == nullptr) {
      const std::string& why = family_errors_[spec.family_file];
      return fail(connection, {KB_ERROR, "referee", why}, "referee: " + why);
    }
    // What the worker prints (a hello's transcript) is what a family reads on its standard output.
    if (fds.size() == 1) {
      std::fflush(stdout);
      ::dup2(fds[0].get(), STDOUT_FILENO);
    }
    cudaStream_t stream = spec.where == KB_DEVICE_CUDA ? device_stream() : nullptr;
    kb_status status = KB_OK;
    std::string stage;
    kb_message message{};
    connection.running =
        FamilyCase::create(*family, spec, stream, connection.verdict, connection.spare, status,
                           stage, message);
    if (!connection.running) {
      // FamilyCase::create entered the failure in the verdict.
      connection.channel.send("failed", encode_failure({status, stage, plugin_text(message.text)}));
      return;
    }
    connection.channel.send("operands", encode_operands(connection.running->operands()),
                            connection.running->memory_fds());
  }

  const KernelFamily* load_family(const std::string& file) {
    if (const auto it = families_.find(file); it != families_.end()) return it->second->family;
    if (family_errors_.count(file)) return nullptr;
    try {
      auto loaded = load_plugin(file);
      if (loaded->family == nullptr) throw LoadError(file + " is not a family");
      return (families_[file] = std::move(loaded))->family;
    } catch (const std::exception& e) {
      family_errors_[file] = e.what();
      return nullptr;
    }
  }

  cudaStream_t device_stream() {
    if (stream_ == nullptr) {
      KB_CUDA_CHECK(cudaSetDevice(device_));
      KB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    }
    return stream_;
  }

  PacketChannel control_;
  int device_;
  int next_id_ = 1;
  std::map<int, Connection> connections_;
  std::map<std::string, std::shared_ptr<const LoadedPlugin>> families_;
  std::map<std::string, std::string> family_errors_;
  cudaStream_t stream_ = nullptr;
};

}  // namespace

void serve_referee(PacketChannel control, int device) { Referee(std::move(control), device).serve(); }

}  // namespace kb
