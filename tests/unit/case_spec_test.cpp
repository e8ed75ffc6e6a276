#include "case_spec.hpp"
#include "input_error.hpp"

#include <gtest/gtest.h>

namespace kb {
namespace {

TEST(CaseSpec, ParsesSizesWithPowersAndOffsets) {
  const auto sizes = parse_sizes("1024, 8192x4096,2^20,10^7+3,1000x1111x113,2^10-1");
  ASSERT_EQ(sizes.size(), 6u);
  EXPECT_EQ(sizes[0].rank, 1);
  EXPECT_EQ(sizes[0].dims[0], 1024);
  EXPECT_EQ(format_extent(sizes[1]), "8192x4096");
  EXPECT_EQ(sizes[2].dims[0], 1 << 20);
  EXPECT_EQ(sizes[3].dims[0], 10000003);
  EXPECT_EQ(format_extent(sizes[4]), "1000x1111x113");
  EXPECT_EQ(sizes[5].dims[0], 1023);
}

TEST(CaseSpec, RefusesMalformedSizesNamingThem) {
  for (const char* bad : {"12x", "x12", "0", "-5", "12y", "1x2x3x4", "2^99", "abc", ""}) {
    try {
      parse_sizes(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

TEST(CaseSpec, ParsesBlocksAndEnforcesCudaLimits) {
  const auto blocks = parse_blocks("32x8,256,8x8x4");
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(format_block(blocks[0]), "32x8");
  EXPECT_EQ(format_block(blocks[1]), "256");
  EXPECT_EQ(blocks[2].threads(), 256);
  EXPECT_THROW(parse_blocks("0x4"), InputError);
  EXPECT_THROW(parse_blocks("64x32"), InputError);     // 2048 threads
  EXPECT_THROW(parse_blocks("2048"), InputError);      // x over 1024
  EXPECT_THROW(parse_blocks("1x1x128"), InputError);   // z over 64
  EXPECT_NO_THROW(parse_blocks("1024,32x32,1x1x64"));
}

TEST(CaseSpec, ParsesDataTypes) {
  const auto dtypes = parse_dtypes("float32,float64,int32,f32");
  ASSERT_EQ(dtypes.size(), 4u);
  EXPECT_EQ(dtypes[0], KB_DTYPE_F32);
  EXPECT_EQ(dtypes[1], KB_DTYPE_F64);
  EXPECT_EQ(dtypes[2], KB_DTYPE_I32);
  EXPECT_THROW(parse_dtypes("float16"), InputError);
  EXPECT_EQ(dtype_list(KB_DTYPE_F32 | KB_DTYPE_I32), "float32,int32");
}

TEST(CaseSpec, BroadcastsOneNumberToTheFamilyRank) {
  EXPECT_EQ(format_extent(broadcast(parse_sizes("2048")[0], 2)), "2048x2048");
  EXPECT_EQ(format_extent(broadcast(parse_sizes("512")[0], 3)), "512x512x512");
  EXPECT_EQ(format_extent(broadcast(parse_sizes("3x4")[0], 2)), "3x4");
  EXPECT_THROW(broadcast(parse_sizes("3x4")[0], 3), InputError);
}

}  // namespace
}  // namespace kb
