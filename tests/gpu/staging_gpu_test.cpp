// Staged copies on a real device: every byte arrives at sizes around the chunk boundaries, the
// streaming comparison sees every chunk (a wrong element in the last one fails the check), and
// the host-side download agrees with the device.
#include "../support/kbench_process.hpp"

#include <kbench/support/array.hpp>
#include <kbench/support/compare.hpp>
#include <kbench/support/random.hpp>
#include <kbench/support/staging.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

constexpr std::size_t kChunkElements = kb::kStagingChunk / sizeof(std::int32_t);

class Staging : public ::testing::TestWithParam<std::size_t> {};

TEST_P(Staging, UploadThenDownloadGivesBackEveryElement) {
  KBTEST_REQUIRE_GPU();
  const std::size_t count = GetParam();
  const auto values = kb::random_vector<std::int32_t>(count, 5, 1, INT32_MIN, INT32_MAX);
  kb::Array<std::int32_t> array(KB_DEVICE_CUDA, count);
  array.upload(values);
  const auto back = array.download();
  ASSERT_EQ(back.size(), count);
  EXPECT_TRUE(std::equal(back.begin(), back.end(), values.begin()));
  EXPECT_TRUE(kb::compare_exact(array, values.data()).passed);
}

TEST_P(Staging, TheStreamingComparisonSeesTheLastElement) {
  KBTEST_REQUIRE_GPU();
  const std::size_t count = GetParam();
  if (count == 0) GTEST_SKIP() << "nothing to get wrong";
  auto values = kb::random_vector<float>(count, 9, 1);
  kb::Array<float> array(KB_DEVICE_CUDA, count);
  array.upload(values);
  values.back() = 2.0f * values.back() + 1.0f;
  const kb_verification check = kb::compare_exact(array, values.data());
  EXPECT_FALSE(check.passed);
  EXPECT_GT(check.max_rel_error, 0.0);
  EXPECT_EQ(check.checked, count);
}

INSTANTIATE_TEST_SUITE_P(AroundTheChunk, Staging,
                         ::testing::Values(std::size_t{0}, std::size_t{1}, kChunkElements - 1,
                                           kChunkElements, kChunkElements + 1,
                                           7 * kChunkElements / 2 + 3));

}  // namespace
