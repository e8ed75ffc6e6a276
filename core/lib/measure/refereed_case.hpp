// A version 3 strategy's case, refereed by its family: the family allocates the buffers, draws
// the inputs from a seed the strategy never sees, counts the work and checks the outputs; the
// strategy only launches. The runner's own digests witness that the inputs stay as drawn and
// that two launches on the same inputs write the same bits.
#pragma once

#include "measure/case_under_test.hpp"

#include <kbench/plugin.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kb {

// A seed no strategy can compute: `seed` mixed with entropy drawn afresh for each call. The
// sweep's seed is public (every row names it, 42 unless --seed says otherwise), so inputs drawn from
// it alone are inputs a strategy can draw itself, without reading them; and a check whose seed is a
// function of it is a check a strategy can foresee.
std::uint64_t secret_seed(std::uint64_t seed);

class RefereedCase final : public CaseUnderTest {
 public:
  // The family's case created and drawn from secret_seed(request.seed), then the strategy prepared
  // on it.
  static CaseSetup set_up(const KernelPlugin& strategy, const KernelFamily& family,
                          const CaseRequest& request, cudaStream_t stream);
  ~RefereedCase() override;
  RefereedCase(const RefereedCase&) = delete;
  RefereedCase& operator=(const RefereedCase&) = delete;

  kb_work work() const override { return work_; }
  std::string work_note() const override;
  kb_status launch(cudaStream_t stream, kb_message& message) override;
  kb_status poison(cudaStream_t stream, kb_message& message) override;
  kb_status check(cudaStream_t stream, kb_verification& result, kb_message& message) override;

  // New inputs from `seed`, the device synchronised, and their digests kept.
  kb_status draw(std::uint64_t seed, std::uint32_t purpose, cudaStream_t stream,
                 kb_message& message);
  // The inputs no longer as drawn: which one ("inputs[0]"); none when every one is.
  std::optional<std::string> changed_input(cudaStream_t stream) const;
  // Whether the case has inputs to draw (a hello has none).
  bool has_inputs() const { return buffers_.input_count > 0; }
  std::optional<std::uint64_t> output_digest(cudaStream_t stream) const override;

 private:
  RefereedCase(const KernelPlugin& strategy, const KernelFamily& family, const CaseRequest& request);

  // What the strategy is handed, made once before its first call: copies, since it may write
  // through the pointers it is given (const only by type), and what it writes there must reach
  // neither the family's case nor the buffers the runner digests and the family checks (an input
  // count of 0 would leave the inputs unwatched). What it does to its own copies is its own
  // affair, so they are not made again for each launch, inside the timed region. They live in an
  // allocation of their own: as members of this object, a strategy reached the runner's buffers,
  // work and check flags beside them by pointer arithmetic from the copies.
  struct Handed {
    kb_case c{};
    kb_buffers buffers{};
    std::string op, params;
  };
  void hand_over();

  const KernelPlugin& strategy_;
  const KernelFamily& family_;
  kb_case case_;           // as the family sees it
  kb_case strategy_case_;  // as the strategy sees it: no seed
  // The flags the family's check is given: the strategy's, less KB_FLAG_CEILING unless the
  // strategy is the family's own reference (its named ceiling, transpose/copy).
  std::uint32_t check_flags_;
  bool ceiling_refused_ = false;
  kb_work work_{};
  void* family_state_ = nullptr;
  void* strategy_state_ = nullptr;
  kb_buffers buffers_{};
  std::unique_ptr<Handed> handed_ = std::make_unique<Handed>();
  std::vector<std::uint64_t> input_digests_;
};

}  // namespace kb
