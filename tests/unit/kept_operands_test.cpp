// Host operands kept from one case for the next: the referee hands a file of the same size again,
// reshaped with its guards at the new end, and the worker finds the mapping it kept by the file,
// its mirror showing what the referee wrote since; past the budget the oldest go.
#include "referee/shared_operands.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace kb {
namespace {

kb_operand wanted_floats(std::uint64_t count) {
  return kb_operand{nullptr, count, count * sizeof(float), KB_DTYPE_F32};
}

ino_t inode_of(const SharedOperand& operand) {
  struct stat file {};
  EXPECT_EQ(::fstat(operand.memory_fd(), &file), 0);
  return file.st_ino;
}

TEST(KeptOperands, AFamilyAskingForTheSameSizeAgainGetsTheSameFileItsGuardsAtTheNewEnd) {
  SpareOperands spare;
  auto first = take_shared_operands(spare, KB_DEVICE_HOST, {wanted_floats(1000)});
  const ino_t file = inode_of(*first[0]);
  spare.keep(first);
  EXPECT_TRUE(first.empty());

  auto second = take_shared_operands(spare, KB_DEVICE_HOST, {wanted_floats(900)});
  EXPECT_EQ(inode_of(*second[0]), file);
  EXPECT_EQ(second[0]->operand().count, 900u);
  EXPECT_EQ(second[0]->operand().bytes, 3600u);
  EXPECT_FALSE(second[0]->guard_damage("inputs[0]"));
  static_cast<unsigned char*>(second[0]->operand().data)[3600] ^= 1;
  EXPECT_EQ(second[0]->guard_damage("inputs[0]").value_or(""),
            "1 bytes after inputs[0] (offsets +0 to +0)");
}

TEST(KeptOperands, AnotherSizeGetsANewFileAndTheKeptOneStaysForLater) {
  SpareOperands spare;
  auto small = take_shared_operands(spare, KB_DEVICE_HOST, {wanted_floats(1000)});
  const ino_t small_file = inode_of(*small[0]);
  spare.keep(small);

  auto large = take_shared_operands(spare, KB_DEVICE_HOST, {wanted_floats(std::uint64_t{1} << 21)});
  EXPECT_NE(inode_of(*large[0]), small_file);
  spare.keep(large);

  auto again = take_shared_operands(spare, KB_DEVICE_HOST, {wanted_floats(1000)});
  EXPECT_EQ(inode_of(*again[0]), small_file);
}

TEST(KeptOperands, PastTheBudgetTheOldestAreFreed) {
  // An operand of one float takes two large pages, 4 MiB: three are over a budget of 10 MiB.
  SpareOperands spare(std::uint64_t{10} << 20);
  auto three = take_shared_operands(spare, KB_DEVICE_HOST,
                                    {wanted_floats(1), wanted_floats(1), wanted_floats(1)});
  ASSERT_EQ(three[0]->allocated_bytes(), std::uint64_t{4} << 20);
  std::vector<ino_t> files;
  for (const auto& operand : three) files.push_back(inode_of(*operand));
  spare.keep(three);
  const auto kept = [&](ino_t file) {
    return spare.take([&](const SharedOperand& k) { return inode_of(k) == file; }) != nullptr;
  };
  EXPECT_FALSE(kept(files[0]));
  EXPECT_TRUE(kept(files[1]));
  EXPECT_TRUE(kept(files[2]));
}

// The worker's side, on a file the test writes as the referee would.
TEST(KeptMappings, TheWorkerMapsAKeptFileOnceAndItsMirrorShowsWhatTheFileHoldsNow) {
  SpareOperands spare;
  auto shared = take_shared_operands(spare, KB_DEVICE_HOST, {wanted_floats(4096)});
  const OperandLayout layout = shared[0]->layout();
  auto* file_floats = static_cast<float*>(shared[0]->operand().data);
  for (int i = 0; i < 4096; ++i) file_floats[i] = static_cast<float>(i);

  KeptMappings kept;
  auto first = map_shared_operands(kept, KB_DEVICE_HOST, {layout}, {::dup(shared[0]->memory_fd())});
  const void* mirror = first[0]->operand().data;
  EXPECT_EQ(static_cast<const float*>(mirror)[4095], 4095.0f);
  kept.keep(first);

  for (int i = 0; i < 4096; ++i) file_floats[i] = static_cast<float>(-i);
  auto second = map_shared_operands(kept, KB_DEVICE_HOST, {layout}, {::dup(shared[0]->memory_fd())});
  EXPECT_EQ(second[0]->operand().data, mirror);
  EXPECT_EQ(static_cast<const float*>(second[0]->operand().data)[4095], -4095.0f);
  kept.keep(second);

  auto other = take_shared_operands(spare, KB_DEVICE_HOST, {wanted_floats(4096)});
  auto third =
      map_shared_operands(kept, KB_DEVICE_HOST, {other[0]->layout()}, {::dup(other[0]->memory_fd())});
  EXPECT_NE(third[0]->operand().data, mirror);
}

}  // namespace
}  // namespace kb
