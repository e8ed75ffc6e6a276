// What a probe or a compile child answers besides a plugin's description: each kind travels whole,
// and a record with a field missing, unknown or naming a case the request did not hold is refused.
#include "protocol/child_answers.hpp"

#include <gtest/gtest.h>

namespace kb {
namespace {

TEST(ChildAnswers, EachKindTravelsWhole) {
  EXPECT_EQ(decode_step(encode_step("accepts()")), "accepts()");
  EXPECT_EQ(decode_reason(encode_reason("no room\tfor the folder")), "no room\tfor the folder");
  const AcceptsAnswer refused = decode_accepts_answer(encode_accepts_answer({false, "odd n"}));
  EXPECT_FALSE(refused.accepted);
  EXPECT_EQ(refused.why, "odd n");
  EXPECT_TRUE(decode_accepts_answer(encode_accepts_answer({true, ""})).accepted);

  const KernelCheckAnswer built{"2 variants", {{0, "grid.x 0"}, {11, "block 2048"}}};
  const KernelCheckAnswer back = decode_built(encode_built(built), 12);
  EXPECT_EQ(back.summary, "2 variants");
  EXPECT_EQ(back.unsupported, built.unsupported);
}

TEST(ChildAnswers, AMissingUnknownOrOutOfRangeFieldIsRefused) {
  EXPECT_THROW(decode_step({}), ProtocolError);
  Record extra = encode_reason("why");
  extra["also"] = "1";
  EXPECT_THROW(decode_reason(extra), ProtocolError);
  Record half = encode_accepts_answer({true, ""});
  half.erase("why");
  EXPECT_THROW(decode_accepts_answer(half), ProtocolError);

  const Record built = encode_built({"", {{3, "too large"}}});
  EXPECT_THROW(decode_built(built, 3), ProtocolError);  // the request held cases 0 to 2
  EXPECT_NO_THROW(decode_built(built, 4));
  Record unnamed = encode_built({});
  unnamed["unsupported.x"] = "why";
  EXPECT_THROW(decode_built(unnamed, 4), ProtocolError);
  unnamed.erase("unsupported.x");
  unnamed["unsupported."] = "why";
  EXPECT_THROW(decode_built(unnamed, 4), ProtocolError);
}

}  // namespace
}  // namespace kb
