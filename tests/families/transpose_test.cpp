// Host tests of the transpose family: the host reference and the acceptance rules the strategies
// share, and the family's referee as the runner uses it (plugins/transpose/family.cu, loaded from
// transpose_family.so through the C ABI, on host buffers): the work it counts, the operands it
// creates, the inputs it draws and the outputs it passes and fails. No GPU needed.
#include "families/family_library.hpp"

#include <kbench/families/transpose.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

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

// --- the referee, through transpose_family.so ---------------------------------------------------

// Every data type of the ABI: transpose moves bits, so the family referees them all.
template <typename T>
class TransposeFamily : public ::testing::Test {
 protected:
  void SetUp() override {
    family = kbtest::load_family("transpose");
    ASSERT_NE(family, nullptr);
  }
  kb_case shape(std::int64_t rows, std::int64_t cols) const {
    return kbtest::make_case(kb::dtype_of<T>(), 2, rows, cols);
  }
  const KernelFamily* family = nullptr;
};
using EveryType =
    ::testing::Types<float, double, std::int32_t, __half, __nv_bfloat16, std::int8_t>;
TYPED_TEST_SUITE(TransposeFamily, EveryType);

// An element as the referee measures its error: in double, 16-bit types through float.
template <typename T>
double as_double(T x) {
  if constexpr (std::is_same_v<T, __half>) {
    return static_cast<double>(__half2float(x));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return static_cast<double>(__bfloat162float(x));
  } else {
    return static_cast<double>(x);
  }
}

// The element with its representation one higher: one ulp away from zero for a float, one more
// for an integer.
template <typename T>
T one_ulp_off(T x) {
  using Bits = std::conditional_t<
      sizeof(T) == 1, std::uint8_t,
      std::conditional_t<sizeof(T) == 2, std::uint16_t,
                         std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  Bits bits;
  std::memcpy(&bits, &x, sizeof bits);
  ++bits;
  std::memcpy(&x, &bits, sizeof bits);
  return x;
}

template <typename T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

TEST(TransposeFamilyLibrary, DescribesItselfAsTheVersionThreeReferee) {
  const KernelFamily* family = kbtest::load_family("transpose");
  ASSERT_NE(family, nullptr);
  EXPECT_EQ(family->abi_version, static_cast<std::uint32_t>(KB_ABI_VERSION));
  EXPECT_EQ(family->struct_size, sizeof(KernelFamily));
  ASSERT_NE(family->info, nullptr);
  const kb_family& want = *kb::transpose::descriptor();
  EXPECT_STREQ(family->info->name, "transpose");
  EXPECT_EQ(family->info->rank, 2);
  EXPECT_STREQ(family->info->shape_names, want.shape_names);
  EXPECT_STREQ(family->info->check_sizes, want.check_sizes);
  EXPECT_STREQ(family->info->reference, "transpose/copy");
  EXPECT_EQ(family->dtypes, static_cast<std::uint32_t>(KB_DTYPE_F32 | KB_DTYPE_F64 | KB_DTYPE_I32 |
                                                       KB_DTYPE_F16 | KB_DTYPE_BF16 | KB_DTYPE_I8));
  EXPECT_STREQ(family->ops, "");
  ASSERT_NE(family->version, nullptr);
  EXPECT_STRNE(family->version, "");
  for (const void* hook : {reinterpret_cast<const void*>(family->work),
                           reinterpret_cast<const void*>(family->create),
                           reinterpret_cast<const void*>(family->draw),
                           reinterpret_cast<const void*>(family->poison),
                           reinterpret_cast<const void*>(family->check),
                           reinterpret_cast<const void*>(family->destroy)}) {
    EXPECT_NE(hook, nullptr);
  }
}

TYPED_TEST(TransposeFamily, WorkIsOneReadAndOneWriteOfEveryElement) {
  const kb_work work = kbtest::work_of(*this->family, this->shape(33, 31));
  EXPECT_DOUBLE_EQ(work.bytes, 2.0 * 33 * 31 * sizeof(TypeParam));
  EXPECT_DOUBLE_EQ(work.flops, 0.0);
  const kb_work large = kbtest::work_of(*this->family, this->shape(8192, 4096));
  EXPECT_DOUBLE_EQ(large.bytes, 2.0 * 8192 * 4096 * sizeof(TypeParam));
}

TEST(TransposeFamilyLibrary, RefusesADataTypeItDoesNotDefine) {
  const KernelFamily* family = kbtest::load_family("transpose");
  ASSERT_NE(family, nullptr);
  // int64 is an operand's type only (reduce's sums), never a case's.
  const kb_case c = kbtest::make_case(KB_DTYPE_I64, 2, 4, 4);
  kb_work work{};
  kb_message message{};
  EXPECT_EQ(family->work(&c, &work, &message), KB_UNSUPPORTED);
  EXPECT_NE(std::string(message.text).find("data type"), std::string::npos) << message.text;
  kbtest::HostCase refused(*family, c);
  EXPECT_EQ(refused.created, KB_UNSUPPORTED);
}

TYPED_TEST(TransposeFamily, CreatesTheInputAndTheOutputOnTheHost) {
  kbtest::HostCase c(*this->family, this->shape(33, 31));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.buffers.input_count, 1u);
  ASSERT_EQ(c.buffers.output_count, 1u);
  for (const kb_operand& operand : {c.buffers.inputs[0], c.buffers.outputs[0]}) {
    EXPECT_NE(operand.data, nullptr);
    EXPECT_EQ(operand.count, 33u * 31u);
    EXPECT_EQ(operand.bytes, 33u * 31u * sizeof(TypeParam));
    EXPECT_EQ(operand.dtype, kb::dtype_of<TypeParam>());
  }
  EXPECT_NE(c.buffers.inputs[0].data, c.buffers.outputs[0].data);
  // Host memory the test can write: every byte of both.
  std::memset(c.buffers.inputs[0].data, 0x5A, c.buffers.inputs[0].bytes);
  std::memset(c.buffers.outputs[0].data, 0xA5, c.buffers.outputs[0].bytes);
}

TYPED_TEST(TransposeFamily, DrawsSeededInputsOverTheWholeRange) {
  kbtest::HostCase a(*this->family, this->shape(40, 50));
  kbtest::HostCase b(*this->family, this->shape(40, 50));
  ASSERT_EQ(a.created, KB_OK) << a.message.text;
  ASSERT_EQ(b.created, KB_OK) << b.message.text;
  ASSERT_EQ(a.draw(11), KB_OK) << a.message.text;
  ASSERT_EQ(b.draw(11), KB_OK) << b.message.text;
  const std::vector<unsigned char> drawn = a.input_bytes();
  EXPECT_EQ(drawn, b.input_bytes()) << "the same seed, the same inputs";

  // Element i is the documented random value of the seed, the same the device draws.
  const TypeParam* in = a.input<TypeParam>();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < 40 * 50; ++i) {
    wrong += !same_bits(in[i], kb::random_value<TypeParam>(11, kb::transpose::kInputStream, i,
                                                           kb::transpose::kLow,
                                                           kb::transpose::kHigh));
  }
  EXPECT_EQ(wrong, 0u);

  // Never all zeros, and varied enough that a misplaced element shows.
  std::set<std::vector<unsigned char>> distinct;
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < 40 * 50; ++i) {
    distinct.insert(std::vector<unsigned char>(drawn.begin() + i * sizeof(TypeParam),
                                               drawn.begin() + (i + 1) * sizeof(TypeParam)));
    zeros += as_double(in[i]) == 0.0;
  }
  EXPECT_GE(distinct.size(), 200u);
  EXPECT_LE(zeros, 20u);
  if constexpr (std::is_same_v<TypeParam, std::int32_t>) {
    const auto [low, high] = std::minmax_element(in, in + 40 * 50);
    EXPECT_LT(*low, -(1 << 30)) << "integers over the whole int32 range";
    EXPECT_GT(*high, 1 << 30);
  } else if constexpr (!std::is_integral_v<TypeParam>) {
    double low = 1, high = -1;
    for (std::size_t i = 0; i < 40 * 50; ++i) {
      low = std::min(low, as_double(in[i]));
      high = std::max(high, as_double(in[i]));
    }
    EXPECT_GE(low, -1.0);
    EXPECT_LE(high, 1.0);
    EXPECT_LT(low, -0.9);
    EXPECT_GT(high, 0.9);
  }

  // Another seed, other inputs almost everywhere.
  ASSERT_EQ(b.draw(12), KB_OK) << b.message.text;
  const std::vector<unsigned char> other = b.input_bytes();
  std::size_t same = 0;
  for (std::size_t i = 0; i < 40 * 50; ++i) {
    same += std::memcmp(&drawn[i * sizeof(TypeParam)], &other[i * sizeof(TypeParam)],
                        sizeof(TypeParam)) == 0;
  }
  EXPECT_LT(same, 100u);
  // And the first seed again, the first inputs again.
  ASSERT_EQ(b.draw(11), KB_OK) << b.message.text;
  EXPECT_EQ(b.input_bytes(), drawn);
}

TYPED_TEST(TransposeFamily, PassesTheExactTransposeAndFailsOneElementOneUlpOff) {
  constexpr std::int64_t rows = 37, cols = 70;
  kbtest::HostCase c(*this->family, this->shape(rows, cols));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.draw(5), KB_OK) << c.message.text;
  TypeParam* out = c.output<TypeParam>();
  kb::transpose::reference(c.input<TypeParam>(), out, rows, cols);

  kb_verification v = c.check();
  EXPECT_EQ(c.checked, KB_OK) << c.message.text;
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.checked, static_cast<std::uint64_t>(rows * cols));
  EXPECT_EQ(v.max_rel_error, 0.0);
  EXPECT_EQ(v.tolerance, 0.0);
  EXPECT_STREQ(v.metrics, "mismatches=0");

  // Output element 100 (column 2, row 26) one ulp off.
  std::size_t e = 100;
  while (as_double(out[e]) == 0.0) ++e;  // a relative error needs a non-zero element
  const TypeParam right = out[e];
  out[e] = one_ulp_off(right);
  v = c.check();
  EXPECT_EQ(c.checked, KB_VERIFY_FAILED);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.checked, static_cast<std::uint64_t>(rows * cols));
  EXPECT_STREQ(v.metrics, "mismatches=1");
  if constexpr (std::is_integral_v<TypeParam>) {
    EXPECT_EQ(v.max_rel_error, INFINITY) << "integers are exact: any difference is infinite";
  } else {
    const double expected = std::fabs(as_double(out[e]) - as_double(right)) /
                            std::fabs(as_double(right));
    EXPECT_GT(expected, 0.0);
    EXPECT_DOUBLE_EQ(v.max_rel_error, expected);
  }
  out[e] = right;
  EXPECT_TRUE(c.check().passed);
}

TYPED_TEST(TransposeFamily, FailsNeighboursSwappedAndACopy) {
  constexpr std::int64_t rows = 37, cols = 70;
  kbtest::HostCase c(*this->family, this->shape(rows, cols));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.draw(5), KB_OK) << c.message.text;
  TypeParam* out = c.output<TypeParam>();
  kb::transpose::reference(c.input<TypeParam>(), out, rows, cols);
  ASSERT_FALSE(same_bits(out[5], out[6]));
  std::swap(out[5], out[6]);  // two neighbours of the output swapped
  kb_verification v = c.check();
  EXPECT_EQ(c.checked, KB_VERIFY_FAILED);
  EXPECT_FALSE(v.passed);
  EXPECT_GT(v.max_rel_error, 0.0);
  EXPECT_STREQ(v.metrics, "mismatches=2");

  std::memcpy(out, c.input<TypeParam>(), rows * cols * sizeof(TypeParam));  // not transposed
  v = c.check();
  EXPECT_EQ(c.checked, KB_VERIFY_FAILED);
  EXPECT_FALSE(v.passed);
}

TYPED_TEST(TransposeFamily, APoisonedOutputFails) {
  constexpr std::int64_t rows = 33, cols = 31;
  kbtest::HostCase c(*this->family, this->shape(rows, cols));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.draw(3), KB_OK) << c.message.text;
  kb::transpose::reference(c.input<TypeParam>(), c.output<TypeParam>(), rows, cols);
  ASSERT_TRUE(c.check().passed);

  const std::vector<unsigned char> right = c.output_bytes();
  ASSERT_EQ(c.poison(), KB_OK) << c.message.text;
  // Every byte 0xFF: NaN for floats, which no transpose of finite inputs holds; -1 for integers,
  // which the draw over the whole int32 range also makes (1 element in 256 of int8, about 1 in
  // 2^32 of int32): such elements match their poison.
  std::size_t poison_like = 0;
  for (std::size_t e = 0; e < static_cast<std::size_t>(rows * cols); ++e) {
    bool all_ones = true;
    for (std::size_t byte = 0; byte < sizeof(TypeParam); ++byte) {
      all_ones = all_ones && right[e * sizeof(TypeParam) + byte] == 0xFF;
    }
    poison_like += all_ones;
  }
  if constexpr (!std::is_integral_v<TypeParam>) EXPECT_EQ(poison_like, 0u);
  EXPECT_LT(poison_like, 20u);
  EXPECT_EQ(c.output_bytes(), std::vector<unsigned char>(c.buffers.outputs[0].bytes, 0xFF));
  const kb_verification v = c.check();
  EXPECT_EQ(c.checked, KB_VERIFY_FAILED);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.max_rel_error, INFINITY) << "NaN for floats; any integer difference is infinite";
  EXPECT_EQ(v.metrics, "mismatches=" + std::to_string(rows * cols - poison_like));
}

TYPED_TEST(TransposeFamily, ChecksAgainstTheLastDraw) {
  constexpr std::int64_t rows = 20, cols = 9;
  kbtest::HostCase c(*this->family, this->shape(rows, cols));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.draw(1), KB_OK) << c.message.text;
  kb::transpose::reference(c.input<TypeParam>(), c.output<TypeParam>(), rows, cols);
  ASSERT_TRUE(c.check().passed);
  // Fresh inputs: the transpose of the old ones (what a strategy that kept its answer writes)
  // fails; the transpose of the new ones passes.
  ASSERT_EQ(c.draw(2), KB_OK) << c.message.text;
  EXPECT_FALSE(c.check().passed);
  kb::transpose::reference(c.input<TypeParam>(), c.output<TypeParam>(), rows, cols);
  EXPECT_TRUE(c.check().passed);
}

TYPED_TEST(TransposeFamily, ACeilingStrategyIsCheckedForACopy) {
  constexpr std::int64_t rows = 5, cols = 9;
  kbtest::HostCase c(*this->family, this->shape(rows, cols));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.draw(9), KB_OK) << c.message.text;
  TypeParam* out = c.output<TypeParam>();

  ASSERT_EQ(c.poison(), KB_OK);
  EXPECT_FALSE(c.check(KB_FLAG_CEILING).passed);

  kb::transpose::reference(c.input<TypeParam>(), out, rows, cols);
  EXPECT_FALSE(c.check(KB_FLAG_CEILING).passed) << "a transpose is not a copy";
  EXPECT_EQ(c.checked, KB_VERIFY_FAILED);
  // Flags that say nothing of the output change nothing.
  EXPECT_TRUE(c.check(KB_FLAG_MATH_SIMT | KB_FLAG_NONDETERMINISTIC).passed);

  std::memcpy(out, c.input<TypeParam>(), rows * cols * sizeof(TypeParam));
  const kb_verification v = c.check(KB_FLAG_CEILING);
  EXPECT_EQ(c.checked, KB_OK) << c.message.text;
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.checked, static_cast<std::uint64_t>(rows * cols));
  EXPECT_FALSE(c.check().passed) << "without the flag the copy is no transpose";
}

TEST(TransposeFamilyLibrary, AcceptsAnyShapeWithARowAndAColumn) {
  const KernelFamily* family = kbtest::load_family("transpose");
  ASSERT_NE(family, nullptr);
  ASSERT_NE(family->accepts, nullptr);
  std::string why;
  EXPECT_TRUE(kbtest::family_accepts(*family, kbtest::make_case(KB_DTYPE_F32, 2, 1, 1)));
  kb_case odd = kbtest::make_case(KB_DTYPE_I8, 2, 33, 31);
  odd.block[0] = 64, odd.block[1] = 64, odd.block[2] = 4;  // blocks are the strategies' to refuse
  EXPECT_TRUE(kbtest::family_accepts(*family, odd));
  for (const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {0, 31}, {33, 0}, {-1, 31}, {0, 0}}) {
    EXPECT_FALSE(kbtest::family_accepts(*family, kbtest::make_case(KB_DTYPE_F32, 2, rows, cols),
                                        &why))
        << rows << "x" << cols;
    EXPECT_NE(why.find("at least one row and column"), std::string::npos) << why;
  }
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
