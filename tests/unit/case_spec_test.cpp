#include "case/case_spec.hpp"
#include "util/input_error.hpp"

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
  const auto dtypes = parse_dtypes("float32,float64,i32");
  ASSERT_EQ(dtypes.size(), 3u);
  EXPECT_EQ(dtypes[0], KB_DTYPE_F32);
  EXPECT_EQ(dtypes[1], KB_DTYPE_F64);
  EXPECT_EQ(dtypes[2], KB_DTYPE_I32);
  EXPECT_THROW(parse_dtypes("float8"), InputError);
  EXPECT_EQ(parse_dtypes("half,bf16,int8"),
            (std::vector<kb_dtype>{KB_DTYPE_F16, KB_DTYPE_BF16, KB_DTYPE_I8}));
  EXPECT_EQ(dtype_list(KB_DTYPE_F32 | KB_DTYPE_BF16 | KB_DTYPE_I8), "float32,bfloat16,int8");
  EXPECT_EQ(dtype_list(KB_DTYPE_F32 | KB_DTYPE_I32), "float32,int32");
}

TEST(CaseSpec, BroadcastsOneNumberToTheFamilyRank) {
  EXPECT_EQ(format_extent(broadcast(parse_sizes("2048")[0], 2)), "2048x2048");
  EXPECT_EQ(format_extent(broadcast(parse_sizes("512")[0], 3)), "512x512x512");
  EXPECT_EQ(format_extent(broadcast(parse_sizes("3x4")[0], 2)), "3x4");
  EXPECT_THROW(broadcast(parse_sizes("3x4")[0], 3), InputError);
}

// Size arithmetic that would wrap (2^62 four times plus 5) and a shape whose element count
// overflows are refused before any plugin sees them.
TEST(CaseSpec, SizeArithmeticAndElementCountsNeverOverflow) {
  for (const char* bad : {"2^62+2^62+2^62+2^62+5", "9223372036854775807+1", "2^63",
                          "99999999999999999999", "0-9223372036854775807-2", "2^40x2^40",
                          "2^21x2^21x2^21", "2^61"}) {
    try {
      parse_sizes(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
  // A value the parser accepts is formatted in up to 19 digits and reads back the same: the
  // worker parses the parent's cases with this parser.
  for (const char* good : {"2^59", "10^18", "1152921504606846975", "3x4x5", "2^20x2^20"}) {
    const Extent e = parse_sizes(good).at(0);
    EXPECT_EQ(format_extent(parse_sizes(format_extent(e)).at(0)), format_extent(e)) << good;
  }
  EXPECT_THROW(broadcast(parse_sizes("2^20").at(0), 3), InputError);  // 2^60 elements
  EXPECT_EQ(format_extent(broadcast(parse_sizes("2^19").at(0), 3)), "524288x524288x524288");
}

// An empty item or a repeated data type is refused, never dropped or doubled silently.
TEST(CaseSpec, EmptyItemsAndRepeatedDataTypesAreRefused) {
  for (const char* bad : {",", "int32,", ",int32", "int32,,float32", " "}) {
    EXPECT_THROW(parse_dtypes(bad), InputError) << "'" << bad << "'";
    EXPECT_THROW(parse_sizes(bad), InputError) << "'" << bad << "'";
  }
  try {
    parse_dtypes("int32,float32,i32");
    ADD_FAILURE() << "accepted a repeated data type";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("int32 given twice"), std::string::npos) << e.what();
  }
  EXPECT_THROW(split_user_list("sum,", "operation"), InputError);
  EXPECT_EQ(split_user_list(" sum , sumsq", "operation"), (std::vector<std::string>{"sum", "sumsq"}));
}

TEST(CaseSpec, UnsignedNumbersAreDigitsAloneWithin64Bits) {
  EXPECT_EQ(parse_unsigned("0"), 0u);
  EXPECT_EQ(parse_unsigned("18446744073709551615"), ~std::uint64_t{0});
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "18446744073709551616", "1e3", "0x10"}) {
    EXPECT_FALSE(parse_unsigned(bad)) << "'" << bad << "'";
  }
}

}  // namespace
}  // namespace kb
