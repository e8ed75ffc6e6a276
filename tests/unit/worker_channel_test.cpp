// Every record on the worker's channel carries the number of the request it answers
// (core/lib/protocol/sequence.hpp), so that a line a plugin forges answers no case. The runs that
// show it: tests/process/worker_channel_run_test.cpp.
#include "protocol/record.hpp"
#include "protocol/sequence.hpp"

#include <gtest/gtest.h>

namespace {

TEST(WorkerChannel, ASequenceNumberTravelsWithARecordAndIsTakenOff) {
  kb::Record fields = {{"status", "ok"}};
  kb::set_sequence(fields, 42);
  std::string kind;
  kb::Record read;
  std::string line = kb::encode_record("result", fields);
  line.pop_back();  // the newline that ends it on the channel
  ASSERT_TRUE(kb::decode_record(line, kind, read));
  EXPECT_EQ(kb::take_sequence(read), 42u);
  EXPECT_EQ(read, (kb::Record{{"status", "ok"}}));  // decodes as its kind again
  for (const char* bad : {"", "x", "-1", "1e3", "99999999999999999999999"}) {
    kb::Record malformed = {{"seq", bad}};
    EXPECT_FALSE(kb::take_sequence(malformed)) << bad;
  }
  kb::Record none;
  EXPECT_FALSE(kb::take_sequence(none));
}

}  // namespace
