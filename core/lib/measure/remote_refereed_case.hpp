// A version 3 strategy's case as the worker runs it: the strategy launches on operands the referee
// process made and shares (referee/shared_operands.hpp); every draw, poison and check is a request
// to the referee, which alone holds the family, its seeds and its reference, and alone writes the
// case's verdict. What this process holds of the case is what the strategy is handed.
#pragma once

#include "measure/case_under_test.hpp"
#include "protocol/packet_channel.hpp"
#include "referee/shared_operands.hpp"

#include <kbench/plugin.h>

#include <memory>
#include <string>
#include <vector>

namespace kb {

class RemoteRefereedCase final : public CaseUnderTest {
 public:
  // The referee asked for the case the parent announced (`output_fd`, the worker's standard
  // output, goes with the request: what a launch prints is what a family may read), its operands
  // mapped, the strategy prepared on them.
  // `kept`: the worker's mappings of its last case's host operands, reused where the referee
  // hands the same files again; this case's go back to it when the case ends.
  static CaseSetup set_up(const KernelPlugin& strategy, const PacketChannel& referee,
                          KeptMappings& kept, const CaseRequest& request, int output_fd);
  ~RemoteRefereedCase() override;
  RemoteRefereedCase(const RemoteRefereedCase&) = delete;
  RemoteRefereedCase& operator=(const RemoteRefereedCase&) = delete;

  kb_work work() const override { return work_; }
  std::string work_note() const override { return note_; }
  kb_status launch(cudaStream_t stream, kb_message& message) override;
  kb_status poison(cudaStream_t stream, kb_message& message) override;
  CheckAnswer check(const char* name, cudaStream_t stream) override;
  bool has_inputs() const override { return !inputs_.empty(); }
  kb_status draw(std::uint32_t purpose, cudaStream_t stream, kb_message& message) override;
  CheckAnswer inputs_unchanged(const char* who, cudaStream_t stream) override;
  CheckAnswer same_output(cudaStream_t stream) override;
  void between_samples() override;
  kb_status zero_outputs(cudaStream_t stream, kb_message& message) override;

 private:
  RemoteRefereedCase(const KernelPlugin& strategy, const PacketChannel& referee,
                     KeptMappings& kept, int output_fd);
  // The device idle, what it printed written out and the host mirrors pushed, so the referee reads
  // what every launch before left. The mirrors only change in the strategy's calls: pushed once
  // after each.
  kb_status settle(kb_message& message);
  // After the referee wrote the operands (a draw, a poison): a host strategy's mirrors pulled, a
  // device strategy's pages touched (page_touch.hpp).
  kb_status take_referee_writes(cudaStream_t stream, kb_message& message);
  // A request that is answered `done` or `failed`.
  kb_status step(const std::string& kind, const Record& fields, kb_message& message) const;
  CheckAnswer ask(const std::string& kind, const Record& fields, cudaStream_t stream);

  // What the strategy is handed, made once before its first call: copies, since it may write
  // through the pointers it is given (const only by type), in an allocation of their own (as
  // members of this object, pointer arithmetic from them reached the case's other fields).
  struct Handed {
    kb_case c{};
    kb_buffers buffers{};
    std::string op, params;
  };

  const KernelPlugin& strategy_;
  const PacketChannel& referee_;
  KeptMappings& kept_;
  int output_fd_;
  bool created_ = false;
  bool capturing_ = false;  // between a poison and its check: the output file holds a launch's
  kb_work work_{};
  std::string note_;
  std::vector<std::unique_ptr<MappedOperand>> inputs_, outputs_;
  std::unique_ptr<Handed> handed_ = std::make_unique<Handed>();
  void* strategy_state_ = nullptr;
  bool mirrors_pushed_ = false;  // since the strategy was last called
};

}  // namespace kb
