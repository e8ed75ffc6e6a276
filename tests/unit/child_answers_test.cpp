// What a probe or a compile child is asked and answers besides a plugin's description: each kind
// travels whole, and a record with a field missing, unknown or naming a case the request did not
// hold is refused.
#include "protocol/child_answers.hpp"
#include "protocol/kernel_request.hpp"

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

TEST(ChildRequests, AKernelFileRequestTravelsWholeWithItsCasesAndFamily) {
  KernelFileRequest request;
  request.file = "/k/sgemm.cu";
  request.strategy = "sgemm/warptiling";
  request.sha256 = "ab12";
  request.device = 1;
  CaseRequest first;
  first.shape = {3, {1024, 512, 256}};
  first.seed = 18446744073709551615ull;
  CaseRequest second = first;
  second.op = "sumsq";
  request.cases = {first, second};
  request.family = PluginInfo{};
  request.family->name = "matmul";
  const KernelFileRequest back = decode_kernel_request(encode_kernel_request(request));
  EXPECT_EQ(back.file, request.file);
  EXPECT_EQ(back.strategy, request.strategy);
  EXPECT_EQ(back.sha256, request.sha256);
  EXPECT_EQ(back.device, 1);
  ASSERT_EQ(back.cases.size(), 2u);
  EXPECT_EQ(back.cases[0].shape.dims, first.shape.dims);
  EXPECT_EQ(back.cases[0].shape.rank, 3);
  EXPECT_EQ(back.cases[0].seed, first.seed);
  EXPECT_EQ(back.cases[1].op, "sumsq");
  ASSERT_TRUE(back.family);
  EXPECT_EQ(back.family->name, "matmul");
  EXPECT_TRUE(back.family_file.empty());
  EXPECT_FALSE(decode_kernel_request(encode_kernel_request({})).family);

  Record broken = encode_kernel_request(request);
  broken["cases"] += "not a record\n";
  EXPECT_THROW(decode_kernel_request(broken), ProtocolError);  // once skipped without a word
  Record renamed = encode_kernel_request(request);
  renamed["family-file"] = renamed["family_file"];
  renamed.erase("family_file");
  EXPECT_THROW(decode_kernel_request(renamed), ProtocolError);
}

}  // namespace
}  // namespace kb
