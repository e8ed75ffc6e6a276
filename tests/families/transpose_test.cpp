// Host tests of the transpose family: the reference, the Problem's inputs and checks (on host
// memory, as transpose/cpu uses it), and the acceptance rules. No GPU needed.
#include <kbench/families/transpose.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

using kb::transpose::Problem;

template <typename Vector>
Vector naive_transpose(const Vector& in, std::int64_t rows, std::int64_t cols) {
  Vector out(in.size());
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
  }
  return out;
}

kb_case make_case(kb_dtype dtype, std::int64_t rows, std::int64_t cols, std::uint64_t seed = 7,
                  int bx = 0, int by = 0, int bz = 0) {
  kb_case c{};
  c.dtype = dtype;
  c.op = "";
  c.rank = 2;
  c.shape[0] = rows;
  c.shape[1] = cols;
  c.block[0] = bx;
  c.block[1] = by;
  c.block[2] = bz;
  c.seed = seed;
  return c;
}

template <typename T>
class TransposeTyped : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::int32_t>;
TYPED_TEST_SUITE(TransposeTyped, Types);

TEST(TransposeReference, KnownTwoByThree) {
  const std::vector<std::int32_t> in = {1, 2, 3,
                                        4, 5, 6};
  std::vector<std::int32_t> out(6, 0);
  kb::transpose::reference(in.data(), out.data(), 2, 3);
  EXPECT_EQ(out, (std::vector<std::int32_t>{1, 4,
                                            2, 5,
                                            3, 6}));
}

TEST(TransposeReference, VectorsKeepTheirOrder) {
  const std::vector<float> row = {0.5f, -1.0f, 2.0f, 3.25f, 7.0f};
  std::vector<float> out(row.size(), 0.0f);
  kb::transpose::reference(row.data(), out.data(), 1, 5);  // 1 x 5 -> 5 x 1
  EXPECT_EQ(out, row);
  kb::transpose::reference(row.data(), out.data(), 5, 1);  // 5 x 1 -> 1 x 5
  EXPECT_EQ(out, row);
  const double one = 42.0;
  double got = 0.0;
  kb::transpose::reference(&one, &got, 1, 1);
  EXPECT_EQ(got, 42.0);
}

TYPED_TEST(TransposeTyped, ReferenceMatchesNaiveLoopAcrossTileEdges) {
  // Sizes on both sides of the reference's 64-element blocking.
  for (const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {63, 65}, {64, 64}, {129, 67}, {33, 31}, {1111, 113}, {1, 4097}, {4097, 1}}) {
    const auto in = kb::random_vector<TypeParam>(static_cast<std::size_t>(rows * cols), 3, 1);
    kb::HostVector<TypeParam> out(in.size());
    kb::transpose::reference(in.data(), out.data(), rows, cols);
    EXPECT_EQ(out, naive_transpose(in, rows, cols)) << rows << "x" << cols;

    kb::HostVector<TypeParam> back(in.size());
    kb::transpose::reference(out.data(), back.data(), cols, rows);
    EXPECT_EQ(back, in) << "transposing twice is the identity, " << rows << "x" << cols;
  }
}

TYPED_TEST(TransposeTyped, CompareTransposedChecksAnyRangeOfTheOutput) {
  // A range that starts and ends inside output rows, as a downloaded chunk does.
  constexpr std::int64_t rows = 129, cols = 67;
  const auto in = kb::random_vector<TypeParam>(static_cast<std::size_t>(rows * cols), 4, 1);
  kb::HostVector<TypeParam> out(in.size());
  kb::transpose::reference(in.data(), out.data(), rows, cols);
  const std::size_t first = 200, count = 5000;
  kb_verification v =
      kb::transpose::compare_transposed(out.data() + first, first, count, in.data(), rows, cols);
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.checked, count);
  EXPECT_EQ(v.max_rel_error, 0.0);

  std::swap(out[first + count - 1], out[first + count - 2]);  // the range's last two
  v = kb::transpose::compare_transposed(out.data() + first, first, count, in.data(), rows, cols);
  EXPECT_FALSE(v.passed);
  EXPECT_GT(v.max_rel_error, 0.0);
  EXPECT_TRUE(kb::transpose::compare_transposed(out.data() + first, first, count - 2, in.data(),
                                                rows, cols)
                  .passed)
      << "elements outside the range are not looked at";
  // The same range checked as if it started elsewhere is wrong everywhere.
  EXPECT_FALSE(kb::transpose::compare_transposed(out.data() + first, first + 1, count - 2,
                                                 in.data(), rows, cols)
                   .passed);
}

TYPED_TEST(TransposeTyped, ProblemCountsTheBytesOfOneReadAndOneWrite) {
  kb_work work{};
  const Problem<TypeParam> p(make_case(kb::dtype_of<TypeParam>(), 33, 31), KB_DEVICE_HOST, work);
  EXPECT_EQ(p.rows, 33);
  EXPECT_EQ(p.cols, 31);
  EXPECT_EQ(p.count(), 33u * 31u);
  EXPECT_DOUBLE_EQ(work.bytes, 2.0 * 33 * 31 * sizeof(TypeParam));
  EXPECT_DOUBLE_EQ(work.flops, 0.0);
}

TYPED_TEST(TransposeTyped, InputsAreDeterministicDistinctAndNotZero) {
  kb_work work{};
  const Problem<TypeParam> a(make_case(kb::dtype_of<TypeParam>(), 40, 50, 11), KB_DEVICE_HOST,
                             work);
  const Problem<TypeParam> b(make_case(kb::dtype_of<TypeParam>(), 40, 50, 11), KB_DEVICE_HOST,
                             work);
  const Problem<TypeParam> c(make_case(kb::dtype_of<TypeParam>(), 40, 50, 12), KB_DEVICE_HOST,
                             work);
  const std::vector<TypeParam> ia(a.in(), a.in() + a.count());
  const std::vector<TypeParam> ib(b.in(), b.in() + b.count());
  const std::vector<TypeParam> ic(c.in(), c.in() + c.count());
  EXPECT_EQ(ia, ib);
  EXPECT_NE(ia, ic);
  std::size_t zeros = 0, repeats = 0;
  for (std::size_t i = 0; i < ia.size(); ++i) {
    zeros += ia[i] == TypeParam{0};
    repeats += i > 0 && ia[i] == ia[i - 1];
  }
  EXPECT_LE(zeros, 1u);
  EXPECT_LE(repeats, 1u) << "a misplaced element must change the output";
}

TYPED_TEST(TransposeTyped, VerifyPassesOnlyOnTheExactTranspose) {
  kb_work work{};
  Problem<TypeParam> p(make_case(kb::dtype_of<TypeParam>(), 37, 70), KB_DEVICE_HOST, work);

  p.poison(nullptr);
  kb_verification v = p.verify();
  EXPECT_FALSE(v.passed) << "the poisoned output must fail";

  kb::transpose::reference(p.in(), p.out(), p.rows, p.cols);
  v = p.verify();
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.checked, p.count());
  EXPECT_EQ(v.max_rel_error, 0.0);
  EXPECT_EQ(v.tolerance, 0.0);

  std::swap(p.out()[5], p.out()[6]);  // two neighbours of the output swapped
  v = p.verify();
  EXPECT_FALSE(v.passed);
  EXPECT_GT(v.max_rel_error, 0.0);

  std::memcpy(p.out(), p.in(), p.count() * sizeof(TypeParam));  // copied, not transposed
  EXPECT_FALSE(p.verify().passed);
}

TYPED_TEST(TransposeTyped, VerifyCopyPassesOnlyOnTheUntransposedInput) {
  kb_work work{};
  Problem<TypeParam> p(make_case(kb::dtype_of<TypeParam>(), 5, 9), KB_DEVICE_HOST, work);
  p.poison(nullptr);
  EXPECT_FALSE(p.verify_copy().passed);

  kb::transpose::reference(p.in(), p.out(), p.rows, p.cols);
  EXPECT_FALSE(p.verify_copy().passed) << "a transpose is not a copy";

  std::memcpy(p.out(), p.in(), p.count() * sizeof(TypeParam));
  const kb_verification v = p.verify_copy();
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.checked, p.count());
}

// --- acceptance rules -------------------------------------------------------------------------

bool accepts(int (*rule)(const kb_case*, kb_message*), std::int64_t rows, std::int64_t cols,
             int bx, int by, int bz = 1, std::string* why_text = nullptr) {
  const kb_case c = make_case(KB_DTYPE_F32, rows, cols, 1, bx, by, bz);
  kb_message why{};
  const bool ok = rule(&c, &why) != 0;
  if (why_text != nullptr) *why_text = why.text;
  return ok;
}

TEST(TransposeAcceptance, SquareTileUpTo32) {
  const auto rule = kb::transpose::accepts_square_block_up_to_32;
  for (int t : {1, 2, 8, 16, 32}) EXPECT_TRUE(accepts(rule, 2048, 2048, t, t)) << t;
  std::string why;
  EXPECT_FALSE(accepts(rule, 2048, 2048, 32, 8, 1, &why));
  EXPECT_NE(why.find("32x8"), std::string::npos) << why;
  EXPECT_FALSE(accepts(rule, 2048, 2048, 8, 16));
  EXPECT_FALSE(accepts(rule, 2048, 2048, 64, 64));
  EXPECT_FALSE(accepts(rule, 2048, 2048, 8, 8, 2));
}

TEST(TransposeAcceptance, ThirtyTwoWideBlockWithPowerOfTwoHeight) {
  const auto rule = kb::transpose::accepts_32_wide_block;
  for (int y : {1, 2, 4, 8, 16, 32}) EXPECT_TRUE(accepts(rule, 1111, 113, 32, y)) << y;
  std::string why;
  EXPECT_FALSE(accepts(rule, 1111, 113, 16, 16, 1, &why));
  EXPECT_NE(why.find("16x16"), std::string::npos) << why;
  for (int y : {3, 12, 24}) EXPECT_FALSE(accepts(rule, 1111, 113, 32, y)) << y;
  EXPECT_FALSE(accepts(rule, 1111, 113, 64, 8));
  EXPECT_FALSE(accepts(rule, 1111, 113, 32, 8, 2));
}

TEST(TransposeAcceptance, AnyTwoDimensionalBlock) {
  const auto rule = kb::transpose::accepts_any_2d_block;
  EXPECT_TRUE(accepts(rule, 33, 31, 8, 8));
  EXPECT_TRUE(accepts(rule, 33, 31, 5, 7));
  EXPECT_TRUE(accepts(rule, 33, 31, 1024, 1));
  EXPECT_FALSE(accepts(rule, 33, 31, 8, 8, 2));
}

TEST(TransposeAcceptance, GridHeightLimitIsUnsupportedNotAnError) {
  std::string why;
  // One block row per 32 rows: 65535 rows of blocks is the most CUDA launches.
  EXPECT_TRUE(accepts(kb::transpose::accepts_square_block_up_to_32, 65535 * 32, 1, 32, 32));
  EXPECT_FALSE(
      accepts(kb::transpose::accepts_square_block_up_to_32, 65535 * 32 + 1, 1, 32, 32, 1, &why));
  EXPECT_NE(why.find("65535"), std::string::npos) << why;
  EXPECT_TRUE(accepts(kb::transpose::accepts_32_wide_block, 65535 * 32, 1, 32, 8));
  EXPECT_FALSE(accepts(kb::transpose::accepts_32_wide_block, 65535 * 32 + 1, 1, 32, 8));
  // naive_col spreads the columns over grid.y, naive_row the rows.
  EXPECT_TRUE(accepts(kb::transpose::accepts_any_2d_block, 1, 65535, 32, 1));
  EXPECT_FALSE(accepts(kb::transpose::accepts_any_2d_block, 1, 65536, 32, 1));
  EXPECT_FALSE(accepts(kb::transpose::accepts_any_2d_block, 65536, 1, 32, 1));
  EXPECT_TRUE(accepts(kb::transpose::accepts_any_2d_block, 65536, 65536, 32, 2));
}

}  // namespace
