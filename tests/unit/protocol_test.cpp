#include "case_request.hpp"
#include "protocol.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

namespace kb {
namespace {

TEST(Protocol, RecordsSurviveTabsNewlinesAndBackslashes) {
  const Record sent = {{"message", "a\tb\nc\\d=e"}, {"status", "ok"}, {"empty", ""}};
  const std::string line = encode_record("result", sent);
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  std::string kind;
  Record received;
  ASSERT_TRUE(decode_record(line.substr(0, line.size() - 1), kind, received));
  EXPECT_EQ(kind, "result");
  EXPECT_EQ(received, sent);
}

TEST(Protocol, CaseRequestRoundTrips) {
  CaseRequest c;
  c.dtype = KB_DTYPE_F64;
  c.op = "sumsq";
  c.shape = parse_sizes("1000x1111x113")[0];
  c.block = parse_blocks("16x16")[0];
  c.seed = 7;
  c.device = 1;
  c.verbose = true;
  const CaseRequest back = case_from_record(to_record(c));
  EXPECT_EQ(back.dtype, c.dtype);
  EXPECT_EQ(back.op, c.op);
  EXPECT_EQ(format_extent(back.shape), "1000x1111x113");
  EXPECT_EQ(format_block(back.block), "16x16");
  EXPECT_EQ(back.seed, 7u);
  EXPECT_EQ(back.device, 1);
  EXPECT_TRUE(back.verbose);
  const kb_case abi = back.to_abi();
  EXPECT_EQ(abi.rank, 3);
  EXPECT_EQ(abi.shape[2], 113);
  EXPECT_STREQ(abi.op, "sumsq");
}

TEST(Protocol, LineReaderSplitsLinesAndTimesOut) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_TRUE(write_text(fds[1], "one\ntw"));
  LineReader reader(fds[0]);
  std::string line;
  EXPECT_EQ(reader.read_line(line, 100), LineReader::Status::line);
  EXPECT_EQ(line, "one");
  EXPECT_EQ(reader.read_line(line, 50), LineReader::Status::timeout);
  ASSERT_TRUE(write_text(fds[1], "o\n"));
  EXPECT_EQ(reader.read_line(line, 100), LineReader::Status::line);
  EXPECT_EQ(line, "two");
  close(fds[1]);
  EXPECT_EQ(reader.read_line(line, 100), LineReader::Status::eof);
  close(fds[0]);
}

}  // namespace
}  // namespace kb
