// One case as the referee holds it: the family's own state (its buffers, the seeds it drew from,
// its reference, its tolerance) and the shared operands the strategy computes on in the worker.
// Nothing of the first is ever in a process that runs strategy code. Every check the referee runs
// is entered in the case's verdict, which only the referee writes and only the parent reads.
#pragma once

#include "referee/referee_messages.hpp"
#include "referee/shared_operands.hpp"

#include <kbench/plugin.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kb {

class FamilyCase {
 public:
  // The family's case created, its shared operands taken from `spare` or allocated, and its
  // inputs drawn for the timed launches from a seed of the referee's own. Nothing when a family
  // hook failed: `status`, `stage` and `message` say which and why (also entered in `verdict`).
  // The case gives its host operands back to `spare` when it ends.
  static std::unique_ptr<FamilyCase> create(const KernelFamily& family, const RefereeCaseSpec& spec,
                                            cudaStream_t stream, RefereeVerdict& verdict,
                                            SpareOperands& spare, kb_status& status,
                                            std::string& stage, kb_message& message);
  ~FamilyCase();
  FamilyCase(const FamilyCase&) = delete;
  FamilyCase& operator=(const FamilyCase&) = delete;

  RefereeOperands operands() const;
  // The memfds of the host operands, in the order of operands(): sent beside it.
  std::vector<int> memory_fds() const;

  // New inputs, for the given purpose (KB_DRAW_TIMED, KB_DRAW_CHECK, KB_DRAW_NEAR), from seeds
  // only the referee knows, copied to the shared inputs and digested there. After the first near
  // draw, one of each two (which, drawn from the secret) draws again from the seed of the one
  // before: the same steps, the same inputs. The launches after the two pay the same for
  // following the referee's work, and only a launch that keeps answers for inputs it saw before
  // tells them apart. The unpoisoned launch's check says which it was, once that launch is over.
  kb_status draw(std::uint32_t purpose, kb_message& message);
  // The family's poison, copied to the shared outputs.
  kb_status poison(kb_message& message);
  // The shared outputs copied back and judged by the family under the check's name; the guard
  // zones of every operand too.
  CheckAnswer check(const std::string& name);
  // The shared inputs against their digests at the last draw; `who` wrote to them.
  CheckAnswer inputs_unchanged(const std::string& who);
  // The shared outputs against those of the first launch asked about (the same inputs): unless
  // the strategy declared KB_FLAG_NONDETERMINISTIC, they must hold the same bits.
  CheckAnswer same_output();

 private:
  FamilyCase(const KernelFamily& family, const RefereeCaseSpec& spec, cudaStream_t stream,
             RefereeVerdict& verdict, SpareOperands& spare);
  void copy(const kb_operand& to, const kb_operand& from) const;
  void synchronize() const;
  void passed(const std::string& check);
  // A check that failed, entered in the verdict unless an earlier one did: KB_VERIFY_FAILED with
  // the row's words, or the status of a step that could not run and its words.
  CheckAnswer failed(kb_status status, std::string failure, std::string message = "");
  std::optional<std::string> guard_damage() const;

  const KernelFamily& family_;
  RefereeCaseSpec spec_;
  cudaStream_t stream_;
  RefereeVerdict& verdict_;
  SpareOperands& spare_;
  kb_case case_;  // as the family sees it, the seed its secret
  std::uint32_t check_flags_;
  bool ceiling_refused_ = false;
  std::uint64_t secret_ = 0;
  std::uint64_t draws_ = 0;
  std::uint64_t near_draws_ = 0;
  std::uint64_t near_seed_ = 0;  // of the inputs now, where the last draw was a near one
  bool near_changed_ = true;     // whether the last near draw changed the inputs
  void* state_ = nullptr;
  kb_buffers family_buffers_{};
  std::vector<std::unique_ptr<SharedOperand>> inputs_, outputs_;
  std::vector<std::uint64_t> input_digests_;
  std::optional<std::uint64_t> first_output_;
};

}  // namespace kb
