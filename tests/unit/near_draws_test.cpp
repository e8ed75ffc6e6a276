// The referee's near draws, as 'changed inputs' holds a launch against them: the first changes the
// inputs; of each later pair, one (which, the referee alone knows) rewrites them as they were, by
// the same steps, and the unpoisoned launch's check says which it was. Driven here as the worker
// drives it, on the transpose family's own library and host operands.
#include "case/case_spec.hpp"
#include "plugin/loader.hpp"
#include "referee/family_case.hpp"
#include "referee/shared_operands.hpp"

#include <boost/filesystem/path.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace kb {
namespace {

std::string family_library(const char* name) {
  return (boost::filesystem::path(KBENCH_EXE).parent_path().parent_path() / "lib" / "kbench" /
          "plugins" / (std::string(name) + "_family.so"))
      .string();
}

TEST(NearDraws, OfEachPairAfterTheFirstOneRewritesTheInputsAsTheyWereAndTheCheckSaysWhich) {
  const auto loaded = load_plugin(family_library("transpose"));
  ASSERT_NE(loaded->family, nullptr);
  RefereeCaseSpec spec;
  spec.request.dtype = KB_DTYPE_F32;
  spec.request.shape = parse_sizes("64x48").front();
  spec.request.seed = 7;
  spec.where = KB_DEVICE_HOST;
  spec.strategy_name = "transpose/cpu";
  spec.family_file = family_library("transpose");
  RefereeVerdict verdict;
  kb_status status = KB_OK;
  std::string stage;
  kb_message message{};
  SpareOperands spare;
  const auto c = FamilyCase::create(*loaded->family, spec, nullptr, verdict, spare, status, stage,
                                    message);
  ASSERT_TRUE(c) << stage << ": " << message.text;
  const RefereeOperands operands = c->operands();
  const std::vector<int> fds = c->memory_fds();
  ASSERT_EQ(fds.size(), 2u);
  MappedOperand in(KB_DEVICE_HOST, operands.inputs[0], ::dup(fds[0]));
  MappedOperand out(KB_DEVICE_HOST, operands.outputs[0], ::dup(fds[1]));
  const std::int64_t rows = 64, cols = 48;
  // What a strategy does: the inputs as the referee left them, the transpose back.
  const auto launch = [&] {
    in.pull();
    out.pull();
    const auto* a = static_cast<const float*>(in.operand().data);
    auto* t = static_cast<float*>(out.operand().data);
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t k = 0; k < cols; ++k) t[k * rows + r] = a[r * cols + k];
    }
    out.push();
    const auto* bytes = static_cast<const unsigned char*>(in.operand().data);
    return std::vector<unsigned char>(bytes, bytes + in.operand().bytes);
  };
  ASSERT_EQ(c->draw(KB_DRAW_CHECK, message), KB_OK) << message.text;
  std::vector<unsigned char> before = launch();
  constexpr int kPairs = 16;
  std::vector<bool> changed;
  int changed_checks = 0;
  for (int i = 0; i < 1 + 2 * kPairs; ++i) {
    ASSERT_EQ(c->draw(KB_DRAW_NEAR, message), KB_OK) << message.text;
    const std::vector<unsigned char> inputs = launch();
    const CheckAnswer answer = c->check(checks::kUnpoisonedLaunch);
    ASSERT_EQ(answer.status, KB_OK) << answer.failure << answer.message;
    ASSERT_TRUE(answer.inputs_changed.has_value());
    changed.push_back(*answer.inputs_changed);
    EXPECT_EQ(inputs != before, *answer.inputs_changed) << "near draw " << i;
    changed_checks += *answer.inputs_changed;
    before = inputs;
  }
  EXPECT_TRUE(changed[0]);
  int changed_first = 0;
  for (int p = 0; p < kPairs; ++p) {
    EXPECT_NE(changed[1 + 2 * p], changed[2 + 2 * p]) << "pair " << p;
    changed_first += changed[1 + 2 * p];
  }
  // The order is the referee's: both come up (16 pairs all alike: one chance in 32,768).
  EXPECT_GT(changed_first, 0);
  EXPECT_LT(changed_first, kPairs);
  // A launch on the inputs as they were proves nothing of new ones: only the others count.
  EXPECT_EQ(verdict.times(checks::kUnpoisonedLaunch), changed_checks);
  EXPECT_EQ(changed_checks, 1 + kPairs);
}

}  // namespace
}  // namespace kb
