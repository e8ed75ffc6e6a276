// Host tests of the hello family: the printf line parser, the standard output capture, acceptance,
// and the record checks and order metrics on synthetic records; and the family's referee as the
// runner uses it (plugins/hello/family.cu, loaded from hello_family.so through the C ABI, on host
// buffers): a launch passes by printing every thread's line or by recording every thread, and
// fails otherwise. No GPU needed.
#include "families/family_library.hpp"

#include <kbench/families/hello.hpp>

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kb::hello {
namespace {

std::string thread_line(int x, int y, int b) {
  return "Hello World from Thread (" + std::to_string(x) + ", " + std::to_string(y) +
         ") in Block " + std::to_string(b) + "!\n";
}

// Every thread of n blocks of bx * by, block by block, thread x fastest, then the host line.
std::string full_output(int n, int bx, int by) {
  std::string text;
  for (int b = 0; b < n; ++b) {
    for (int y = 0; y < by; ++y) {
      for (int x = 0; x < bx; ++x) text += thread_line(x, y, b);
    }
  }
  return text + kHostLine + "\n";
}

constexpr Geometry kSeedCase{5, 2, 2};

TEST(HelloTranscript, WellFormedOutputPasses) {
  const Transcript t = read_transcript(full_output(5, 2, 2), kSeedCase);
  EXPECT_TRUE(t.passed());
  EXPECT_EQ(t.lines, 21u);
  EXPECT_EQ(t.host_lines, 1u);
  EXPECT_EQ(t.thread_lines, 20u);
  EXPECT_EQ(t.missing, 0u);
  EXPECT_EQ(t.block_runs, 5u);
  EXPECT_TRUE(t.blocks_in_order);
  EXPECT_EQ(metrics_of(t),
            "lines=21;host_lines=1;thread_lines=20;missing=0;duplicated=0;out_of_range=0;"
            "malformed=0;block_runs=5;blocks_in_order=1");
}

TEST(HelloTranscript, AnyOrderPassesAndTheOrderIsMeasured) {
  // Host line first (as on a real run: device lines arrive at synchronisation), blocks 3 1 ...,
  // block 0 split in two runs around block 2.
  std::string text = std::string(kHostLine) + "\n";
  text += thread_line(1, 1, 3) + thread_line(0, 0, 3) + thread_line(1, 0, 3) + thread_line(0, 1, 3);
  text += thread_line(0, 0, 1) + thread_line(1, 0, 1) + thread_line(0, 1, 1) + thread_line(1, 1, 1);
  text += thread_line(0, 0, 0) + thread_line(1, 0, 0);
  text += thread_line(0, 0, 2) + thread_line(1, 0, 2) + thread_line(0, 1, 2) + thread_line(1, 1, 2);
  text += thread_line(0, 1, 0) + thread_line(1, 1, 0);
  text += thread_line(0, 0, 4) + thread_line(1, 0, 4) + thread_line(0, 1, 4) + thread_line(1, 1, 4);
  const Transcript t = read_transcript(text, kSeedCase);
  EXPECT_TRUE(t.passed()) << problems_of(t);
  EXPECT_EQ(t.block_runs, 6u);
  EXPECT_FALSE(t.blocks_in_order);
}

TEST(HelloTranscript, MissingLinesFail) {
  std::string text = full_output(5, 2, 2);
  const std::string gone = thread_line(1, 0, 4);
  text.erase(text.find(gone), gone.size());
  const Transcript t = read_transcript(text, kSeedCase);
  EXPECT_FALSE(t.passed());
  EXPECT_EQ(t.missing, 1u);
  EXPECT_EQ(t.thread_lines, 19u);
  EXPECT_NE(problems_of(t).find("1 threads printed no line"), std::string::npos) << problems_of(t);
}

TEST(HelloTranscript, MissingHostLineFails) {
  std::string text = full_output(5, 2, 2);
  text.erase(text.find(kHostLine));
  const Transcript t = read_transcript(text, kSeedCase);
  EXPECT_FALSE(t.passed());
  EXPECT_EQ(t.host_lines, 0u);
  EXPECT_EQ(t.missing, 0u);
  EXPECT_NE(problems_of(t).find("host line appeared 0 times"), std::string::npos);
}

TEST(HelloTranscript, DuplicatedLinesFail) {
  const Transcript t =
      read_transcript(full_output(5, 2, 2) + thread_line(0, 1, 2) + kHostLine + "\n", kSeedCase);
  EXPECT_FALSE(t.passed());
  EXPECT_EQ(t.duplicated, 1u);
  EXPECT_EQ(t.host_lines, 2u);
  EXPECT_EQ(t.missing, 0u);
}

TEST(HelloTranscript, LinesNamingNoThreadFail) {
  for (const std::string& extra : {thread_line(2, 0, 0), thread_line(0, 2, 0), thread_line(0, 0, 5)}) {
    const Transcript t = read_transcript(full_output(5, 2, 2) + extra, kSeedCase);
    EXPECT_FALSE(t.passed()) << extra;
    EXPECT_EQ(t.out_of_range, 1u) << extra;
    EXPECT_EQ(t.first_bad + "\n", extra);
  }
}

TEST(HelloTranscript, MalformedLinesFail) {
  const std::vector<std::string> malformed = {
      "Hello World from Thread (1,1) in Block 4!",   // missing space
      "Hello World from Thread (1, 1) in Block 4",   // no '!'
      "Hello World from Thread (1, 1) in Block 4!!",
      "Hello World from Thread (01, 1) in Block 4!",  // %d writes no leading zero
      "Hello World from Thread (-1, 1) in Block 4!",
      "Hello World from Thread (+1, 1) in Block 4!",
      "Hello World from Thread ( 1, 1) in Block 4!",
      "Hello World from Thread (1, 1) in Block 4! ",
      "Hello World from Thread (1, 1) in Block 4!\r",
      "Hello World from Thread (1, 1) in Block 99999999999!",
      "hello world from thread (1, 1) in block 4!",
      "Hello World from the host",
      "",
      "garbage",
  };
  for (const std::string& line : malformed) {
    const Transcript t = read_transcript(full_output(5, 2, 2) + line + "\n", kSeedCase);
    EXPECT_FALSE(t.passed()) << '"' << line << '"';
    EXPECT_EQ(t.malformed, 1u) << '"' << line << '"';
    EXPECT_EQ(t.first_bad, line);
    EXPECT_NE(problems_of(t).find("first bad line: \"" + line.substr(0, 20)), std::string::npos)
        << problems_of(t);
  }
}

TEST(HelloTranscript, TruncatedLastLineFails) {
  // Output cut mid-stream: even a complete-looking last line needs its newline.
  std::string text = full_output(5, 2, 2);
  text.pop_back();
  const Transcript t = read_transcript(text, kSeedCase);
  EXPECT_FALSE(t.passed());
  EXPECT_EQ(t.malformed, 1u);
  EXPECT_EQ(t.host_lines, 0u);
}

TEST(HelloTranscript, EmptyOutputMissesEverything) {
  const Transcript t = read_transcript("", kSeedCase);
  EXPECT_FALSE(t.passed());
  EXPECT_EQ(t.lines, 0u);
  EXPECT_EQ(t.missing, 20u);
  EXPECT_EQ(t.host_lines, 0u);
}

TEST(HelloTranscript, CountsEveryThreadOfALargeLaunch) {
  const Geometry g{64, 32, 32};
  const Transcript t = read_transcript(full_output(64, 32, 32), g);
  EXPECT_TRUE(t.passed()) << problems_of(t);
  EXPECT_EQ(t.thread_lines, 65536u);
}

TEST(HelloStdoutCapture, HoldsWhatWasWrittenToTheOutputFileSinceItBegan) {
  kbtest::OutputFile output;
  std::printf("buffered before the capture\n");  // must not leak into it
  StdoutCapture capture;
  capture.begin();
  EXPECT_TRUE(capture.active());
  std::printf("through stdio %d\n", 1);
  std::fflush(stdout);
  ASSERT_EQ(write(STDOUT_FILENO, "through the descriptor\n", 23), 23);
  std::printf("buffered, not flushed");
  EXPECT_EQ(capture.end(), "through stdio 1\nthrough the descriptor\nbuffered, not flushed");
  EXPECT_FALSE(capture.active());
  // A second capture starts from nothing.
  capture.begin();
  std::printf("second\n");
  EXPECT_EQ(capture.end(), "second\n");
}

// A family reads what the strategy's process printed from the file the referee holds as its
// standard output; anything else (a pipe, a terminal) holds no launch's lines to read back.
TEST(HelloStdoutCapture, RefusesAStandardOutputThatIsNoFile) {
  int ends[2];
  ASSERT_EQ(pipe(ends), 0);
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  dup2(ends[1], STDOUT_FILENO);
  StdoutCapture capture;
  EXPECT_THROW(capture.begin(), Error);
  EXPECT_FALSE(capture.active());
  dup2(saved, STDOUT_FILENO);
  close(saved), close(ends[0]), close(ends[1]);
}

TEST(HelloStdoutCapture, EndWithoutBeginIsAnError) {
  StdoutCapture capture;
  EXPECT_THROW(capture.end(), Error);
}

kb_case hello_case(std::int64_t n, std::int32_t x, std::int32_t y, std::int32_t z = 1) {
  kb_case c{};
  c.dtype = KB_DTYPE_NONE;
  c.op = "";
  c.rank = 1;
  c.shape[0] = n;
  c.block[0] = x;
  c.block[1] = y;
  c.block[2] = z;
  return c;
}

bool accepted(const kb_case& c, kb_message& why) { return accepts(&c, &why) != 0; }

TEST(HelloAccepts, SeedCasesUpToTheLineLimit) {
  kb_message why{};
  EXPECT_TRUE(accepted(hello_case(5, 2, 2), why));
  EXPECT_TRUE(accepted(hello_case(32, 32, 32), why));
  EXPECT_TRUE(accepted(hello_case(1024, 8, 8), why));
  EXPECT_TRUE(accepted(hello_case(976, 32, 32), why));  // 999,424 lines
  EXPECT_TRUE(accepted(hello_case(1'000'000, 1, 1), why));
}

TEST(HelloAccepts, RefusesMoreThanAMillionLinesWithAReason) {
  kb_message why{};
  EXPECT_FALSE(accepted(hello_case(1024, 32, 32), why));
  EXPECT_NE(std::string(why.text).find("1048576 threads"), std::string::npos) << why.text;
  EXPECT_NE(std::string(why.text).find("1000000"), std::string::npos) << why.text;
  EXPECT_FALSE(accepted(hello_case(1'000'001, 1, 1), why));
  EXPECT_FALSE(accepted(hello_case(std::int64_t{1} << 60, 32, 32), why));
  EXPECT_NE(std::string(why.text).find("limit"), std::string::npos) << why.text;
}

TEST(HelloAccepts, RefusesThreeDimensionalBlocks) {
  kb_message why{};
  EXPECT_FALSE(accepted(hello_case(5, 2, 2, 2), why));
  EXPECT_NE(std::string(why.text).find("2x2x2"), std::string::npos) << why.text;
}

// Records as a correct launch writes them: slot = b * x * y + tx + ty * x. Each block b runs on SM
// sm_of(b) from start_of(b) for `life` ns; tickets in block order, lanes in order.
HostVector<Record> records_for(const Geometry& g, std::uint32_t (*sm_of)(std::uint32_t),
                               std::uint64_t (*start_of)(std::uint32_t), std::uint64_t life) {
  HostVector<Record> records;
  for (std::uint32_t b = 0; b < g.blocks; ++b) {
    for (std::uint16_t y = 0; y < g.y; ++y) {
      for (std::uint16_t x = 0; x < g.x; ++x) {
        const auto ticket = static_cast<std::uint32_t>(records.size());
        records.push_back({b, x, y, sm_of(b), ticket, start_of(b), start_of(b) + life});
      }
    }
  }
  return records;
}

std::uint32_t sm_is_block(std::uint32_t b) { return b; }
std::uint64_t all_at_once(std::uint32_t) { return 1000; }

TEST(HelloRecords, CorrectRecordsPass) {
  const auto records = records_for(kSeedCase, sm_is_block, all_at_once, kLifeNs);
  const RecordCheck check = check_records(records, kSeedCase);
  EXPECT_TRUE(check.passed()) << check.first_problem;
}

TEST(HelloRecords, UnwrittenSlotFails) {
  auto records = records_for(kSeedCase, sm_is_block, all_at_once, kLifeNs);
  std::memset(&records[6], 0xFF, sizeof(Record));  // poison left by a thread that never ran
  const RecordCheck check = check_records(records, kSeedCase);
  EXPECT_FALSE(check.passed());
  EXPECT_EQ(check.wrong_slots, 1u);
  EXPECT_EQ(check.bad_tickets, 0u);
  EXPECT_EQ(check.first_problem,
            "the slot of thread (0, 1) in block 1 holds thread (65535, 65535) in block 4294967295");
}

TEST(HelloRecords, MisplacedRecordFails) {
  auto records = records_for(kSeedCase, sm_is_block, all_at_once, kLifeNs);
  std::swap(records[0].x, records[1].x);  // slots 0 and 1 each name the other thread
  const RecordCheck check = check_records(records, kSeedCase);
  EXPECT_EQ(check.wrong_slots, 2u);
}

TEST(HelloRecords, RepeatedOrOutOfRangeTicketsFail) {
  auto records = records_for(kSeedCase, sm_is_block, all_at_once, kLifeNs);
  records[3].ticket = records[2].ticket;
  records[7].ticket = 20;
  const RecordCheck check = check_records(records, kSeedCase);
  EXPECT_FALSE(check.passed());
  EXPECT_EQ(check.wrong_slots, 0u);
  EXPECT_EQ(check.bad_tickets, 2u);
}

TEST(HelloOrderMetrics, AllBlocksAtOnceOnTheirOwnSms) {
  const auto records = records_for(kSeedCase, sm_is_block, all_at_once, kLifeNs);
  const OrderMetrics m = order_metrics(records, kSeedCase);
  EXPECT_EQ(m.sms, 5u);
  EXPECT_EQ(m.max_resident, 5u);
  EXPECT_EQ(m.max_resident_per_sm, 1u);
  EXPECT_EQ(m.warps, 5u);
  EXPECT_EQ(m.warps_in_lane_order, 5u);
  EXPECT_TRUE(m.blocks_in_order);
  EXPECT_EQ(m.block_inversions, 0u);
  EXPECT_EQ(m.span_ns, kLifeNs);
  EXPECT_EQ(metrics_of(m),
            "sms=5;max_resident=5;max_resident_per_sm=1;warps=5;warps_in_lane_order=5;"
            "blocks_in_order=1;block_inversions=0;span_ns=20000");
}

std::uint32_t one_sm(std::uint32_t) { return 7; }
std::uint64_t one_after_another(std::uint32_t b) { return 1000 + b * 100; }

TEST(HelloOrderMetrics, BlocksThatTouchDoNotOverlap) {
  // The seed's claim "one block at a time": each block starts the nanosecond the previous ends.
  const auto records = records_for(kSeedCase, one_sm, one_after_another, 100);
  const OrderMetrics m = order_metrics(records, kSeedCase);
  EXPECT_EQ(m.sms, 1u);
  EXPECT_EQ(m.max_resident, 1u);
  EXPECT_EQ(m.max_resident_per_sm, 1u);
  EXPECT_EQ(m.span_ns, 500u);
}

std::uint32_t two_sms(std::uint32_t b) { return b % 2; }
std::uint64_t staggered(std::uint32_t b) { return 1000 + b * 100; }

TEST(HelloOrderMetrics, OverlapIsCountedPerSmAndOverall) {
  // Blocks live 250 ns, a new one every 100 ns: three alive at once, alternating between two SMs,
  // so at most two on one SM.
  const auto records = records_for(kSeedCase, two_sms, staggered, 250);
  const OrderMetrics m = order_metrics(records, kSeedCase);
  EXPECT_EQ(m.sms, 2u);
  EXPECT_EQ(m.max_resident, 3u);
  EXPECT_EQ(m.max_resident_per_sm, 2u);
}

TEST(HelloOrderMetrics, ABlockLivesFromItsFirstStartToItsLastEnd) {
  // Block 0's threads start early and end late individually; block 1 only overlaps the block.
  auto records = records_for(Geometry{2, 2, 1}, one_sm, all_at_once, 10);
  records[0].start_ns = 0, records[0].end_ns = 10;
  records[1].start_ns = 90, records[1].end_ns = 100;
  records[2].start_ns = records[3].start_ns = 40;
  records[2].end_ns = records[3].end_ns = 60;
  const OrderMetrics m = order_metrics(records, Geometry{2, 2, 1});
  EXPECT_EQ(m.max_resident, 2u);
  EXPECT_EQ(m.span_ns, 100u);
}

TEST(HelloOrderMetrics, ArrivalOrderOfBlocksAndLanes) {
  auto records = records_for(kSeedCase, sm_is_block, all_at_once, kLifeNs);
  // Blocks arrive 2, 0, 1, 4, 3: tickets 0-3 to block 2, 4-7 to block 0, ...
  const std::uint32_t arrival[5] = {1, 2, 0, 4, 3};
  for (auto& r : records) r.ticket = arrival[r.block] * 4 + (r.x + r.y * 2);
  // Block 3 (one warp) takes its lanes' tickets in reverse order.
  for (int l = 0; l < 4; ++l) records[12 + l].ticket = 16 + 3 - l;
  ASSERT_TRUE(check_records(records, kSeedCase).passed());
  const OrderMetrics m = order_metrics(records, kSeedCase);
  EXPECT_FALSE(m.blocks_in_order);
  EXPECT_EQ(m.block_inversions, 3u);  // (0,2), (1,2), (3,4)
  EXPECT_EQ(m.warps, 5u);
  EXPECT_EQ(m.warps_in_lane_order, 4u);
}

TEST(HelloOrderMetrics, WarpsAreCutEvery32LinearThreadIds) {
  // One block of 8x8 = 64 threads, two warps. The second warp arrives first, each in lane order:
  // both warps are in lane order though the block as a whole is not.
  const Geometry g{1, 8, 8};
  auto records = records_for(g, one_sm, all_at_once, kLifeNs);
  for (std::uint32_t l = 0; l < 64; ++l) records[l].ticket = (l + 32) % 64;
  OrderMetrics m = order_metrics(records, g);
  EXPECT_EQ(m.warps, 2u);
  EXPECT_EQ(m.warps_in_lane_order, 2u);
  // Arrivals y fastest ((0,0), (0,1), ...): thread (1,0), lane 1, comes after (0,1), lane 8.
  for (std::uint32_t l = 0; l < 64; ++l) records[l].ticket = (l % 8) * 8 + l / 8;
  m = order_metrics(records, g);
  EXPECT_EQ(m.warps_in_lane_order, 0u);
}

TEST(HelloOrderMetrics, ReversedBlocksHaveEveryPairInverted) {
  const Geometry g{100, 3, 1};
  auto records = records_for(g, sm_is_block, all_at_once, kLifeNs);
  for (auto& r : records) r.ticket = (99 - r.block) * 3 + r.x;
  const OrderMetrics m = order_metrics(records, g);
  EXPECT_EQ(m.block_inversions, 4950u);
  EXPECT_FALSE(m.blocks_in_order);
}

TEST(HelloOrderMetrics, SummaryAnswersTheSeedsQuestion) {
  const auto records = records_for(kSeedCase, sm_is_block, all_at_once, kLifeNs);
  const std::string text = summary_of(order_metrics(records, kSeedCase), kSeedCase);
  EXPECT_NE(text.find("ran on 5 SMs"), std::string::npos) << text;
  EXPECT_NE(text.find("up to 5 blocks were resident at once (up to 1 on one SM)"),
            std::string::npos) << text;
  EXPECT_NE(text.find("5 of 5 warps took their tickets in lane order"), std::string::npos) << text;
  EXPECT_NE(text.find("blocks arrived in index order (0 of 10 block pairs inverted)"),
            std::string::npos) << text;
}

// --- the referee, through hello_family.so -------------------------------------------------------

const KernelFamily& hello_family() {
  const KernelFamily* family = kbtest::load_family("hello");
  if (family == nullptr) throw std::runtime_error("hello_family.so cannot be loaded");
  return *family;
}

kb_case family_case(std::int64_t n, std::int32_t x, std::int32_t y) {
  kb_case c = kbtest::make_case(KB_DTYPE_NONE, 1, n);
  c.block[0] = x, c.block[1] = y, c.block[2] = 1;
  return c;
}

// The records of a host case, written by the test as a strategy's launch would.
void write_records(kbtest::HostCase& c, const HostVector<Record>& records) {
  ASSERT_EQ(c.buffers.outputs[0].bytes, records.size() * sizeof(Record));
  std::memcpy(c.buffers.outputs[0].data, records.data(), records.size() * sizeof(Record));
}

void print(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

// The family as the referee runs it: its standard output the file the strategy's process prints
// into.
class HelloFamilyLibrary : public ::testing::Test {
 private:
  kbtest::OutputFile output_;
};

TEST_F(HelloFamilyLibrary, DescribesItselfAsTheVersionThreeReferee) {
  const KernelFamily& family = hello_family();
  EXPECT_EQ(family.abi_version, static_cast<std::uint32_t>(KB_ABI_VERSION));
  EXPECT_EQ(family.struct_size, sizeof(KernelFamily));
  ASSERT_NE(family.info, nullptr);
  EXPECT_STREQ(family.info->name, "hello");
  EXPECT_EQ(family.info->rank, 1);
  EXPECT_STREQ(family.info->headline, "time");
  EXPECT_STREQ(family.info->reference, "");
  EXPECT_EQ(family.dtypes, static_cast<std::uint32_t>(KB_DTYPE_NONE));
  EXPECT_STREQ(family.ops, "");
  ASSERT_NE(family.version, nullptr);
  EXPECT_STRNE(family.version, "");
}

TEST_F(HelloFamilyLibrary, AHelloIsItsTimeAlone) {
  for (const kb_case& c : {family_case(5, 2, 2), family_case(1024, 8, 8)}) {
    const kb_work work = kbtest::work_of(hello_family(), c);
    EXPECT_EQ(work.bytes, 0.0);
    EXPECT_EQ(work.flops, 0.0);
  }
  kb_case with_data = family_case(5, 2, 2);
  with_data.dtype = KB_DTYPE_F32;
  kb_work work{};
  kb_message message{};
  EXPECT_EQ(hello_family().work(&with_data, &work, &message), KB_UNSUPPORTED);
}

TEST_F(HelloFamilyLibrary, CreatesOneRecordSlotPerThreadAndNoInput) {
  kbtest::HostCase c(hello_family(), family_case(5, 2, 2));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  EXPECT_EQ(c.buffers.input_count, 0u);
  ASSERT_EQ(c.buffers.output_count, 1u);
  EXPECT_NE(c.buffers.outputs[0].data, nullptr);
  EXPECT_EQ(c.buffers.outputs[0].count, 20u);
  EXPECT_EQ(c.buffers.outputs[0].bytes, 20u * sizeof(Record));
  EXPECT_EQ(c.buffers.outputs[0].dtype, KB_DTYPE_NONE);
  // Nothing to draw, for either purpose, and nothing a draw changes.
  const std::vector<unsigned char> before = c.output_bytes();
  EXPECT_EQ(c.draw(1, KB_DRAW_TIMED), KB_OK) << c.message.text;
  EXPECT_EQ(c.draw(2, KB_DRAW_CHECK), KB_OK) << c.message.text;
  EXPECT_EQ(c.output_bytes(), before);
}

TEST_F(HelloFamilyLibrary, PassesCorrectRecords) {
  kbtest::HostCase c(hello_family(), family_case(5, 2, 2));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  const auto records = records_for(kSeedCase, sm_is_block, all_at_once, kLifeNs);
  ASSERT_EQ(c.poison(), KB_OK) << c.message.text;
  write_records(c, records);
  const kb_verification v = c.check();
  EXPECT_EQ(c.checked, KB_OK) << c.message.text;
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.checked, 20u);
  EXPECT_EQ(v.metrics, metrics_of(order_metrics(records, kSeedCase)));
  EXPECT_STREQ(v.metrics,
               "sms=5;max_resident=5;max_resident_per_sm=1;warps=5;warps_in_lane_order=5;"
               "blocks_in_order=1;block_inversions=0;span_ns=20000");
}

TEST_F(HelloFamilyLibrary, FailsPoisonedRecordsWithNothingPrinted) {
  kbtest::HostCase c(hello_family(), family_case(5, 2, 2));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.poison(), KB_OK) << c.message.text;
  const kb_verification v = c.check();  // a launch that neither printed nor recorded
  EXPECT_EQ(c.checked, KB_VERIFY_FAILED);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.checked, 20u);
  EXPECT_STREQ(v.metrics,
               "recorded: 20 of 20 records missing or misplaced, 0 tickets out of range or "
               "repeated; the slot of thread (0, 0) in block 0 holds thread (65535, 65535) in "
               "block 4294967295");
}

TEST_F(HelloFamilyLibrary, FailsAMisplacedRecordOrARepeatedTicket) {
  kbtest::HostCase c(hello_family(), family_case(5, 2, 2));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  auto records = records_for(kSeedCase, sm_is_block, all_at_once, kLifeNs);
  std::swap(records[0].x, records[1].x);  // slots 0 and 1 each name the other thread
  ASSERT_EQ(c.poison(), KB_OK) << c.message.text;
  write_records(c, records);
  kb_verification v = c.check();
  EXPECT_EQ(c.checked, KB_VERIFY_FAILED);
  EXPECT_FALSE(v.passed);
  EXPECT_STREQ(v.metrics,
               "recorded: 2 of 20 records missing or misplaced, 0 tickets out of range or "
               "repeated; the slot of thread (0, 0) in block 0 holds thread (1, 0) in block 0");

  records = records_for(kSeedCase, sm_is_block, all_at_once, kLifeNs);
  records[1].ticket = records[0].ticket;
  ASSERT_EQ(c.poison(), KB_OK) << c.message.text;
  write_records(c, records);
  v = c.check();
  EXPECT_EQ(c.checked, KB_VERIFY_FAILED);
  EXPECT_STREQ(v.metrics,
               "recorded: 0 of 20 records missing or misplaced, 1 tickets out of range or "
               "repeated; thread (1, 0) in block 0 holds ticket 0, out of range or repeated");
}

TEST_F(HelloFamilyLibrary, PassesACorrectTranscriptPrintedBetweenPoisonAndCheck) {
  kbtest::HostCase c(hello_family(), family_case(5, 2, 2));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  ASSERT_EQ(c.poison(), KB_OK) << c.message.text;  // starts capturing standard output
  print(full_output(5, 2, 2));
  const kb_verification v = c.check();  // the records are still poisoned: the lines pass it
  EXPECT_EQ(c.checked, KB_OK) << c.message.text;
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.checked, 20u);
  EXPECT_EQ(v.metrics, metrics_of(read_transcript(full_output(5, 2, 2), kSeedCase)));
}

TEST_F(HelloFamilyLibrary, FailsATranscriptMissingALine) {
  kbtest::HostCase c(hello_family(), family_case(5, 2, 2));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  std::string text = full_output(5, 2, 2);
  const std::string gone = thread_line(1, 0, 4);
  text.erase(text.find(gone), gone.size());
  ASSERT_EQ(c.poison(), KB_OK) << c.message.text;
  print(text);
  const kb_verification v = c.check();
  EXPECT_EQ(c.checked, KB_VERIFY_FAILED);
  EXPECT_FALSE(v.passed);
  EXPECT_STREQ(v.metrics,
               "printed: hello/printf output: 1 threads printed no line (20 lines read)");
}

TEST_F(HelloFamilyLibrary, EitherWayOfSayingHelloPasses) {
  // Correct records beside stray output (a strategy that records and also prints something):
  // the records pass the launch.
  kbtest::HostCase c(hello_family(), family_case(5, 2, 2));
  ASSERT_EQ(c.created, KB_OK) << c.message.text;
  const auto records = records_for(kSeedCase, sm_is_block, all_at_once, kLifeNs);
  ASSERT_EQ(c.poison(), KB_OK) << c.message.text;
  print("debug output\n");
  write_records(c, records);
  const kb_verification v = c.check();
  EXPECT_TRUE(v.passed) << v.metrics;
  EXPECT_EQ(v.metrics, metrics_of(order_metrics(records, kSeedCase)));
  // The capture ended with the check: what is printed now is no launch's.
  ASSERT_EQ(c.poison(), KB_OK) << c.message.text;
  EXPECT_FALSE(c.check().passed);
}

TEST_F(HelloFamilyLibrary, AcceptsTheSameShapesAsItsStrategies) {
  const KernelFamily& family = hello_family();
  ASSERT_NE(family.accepts, nullptr);
  std::string why;
  EXPECT_TRUE(kbtest::family_accepts(family, family_case(5, 2, 2)));
  EXPECT_TRUE(kbtest::family_accepts(family, family_case(976, 32, 32)));
  kb_case three_d = family_case(5, 2, 2);
  three_d.block[2] = 2;
  EXPECT_FALSE(kbtest::family_accepts(family, three_d, &why));
  EXPECT_NE(why.find("2x2x2"), std::string::npos) << why;
  EXPECT_FALSE(kbtest::family_accepts(family, family_case(0, 2, 2), &why));
  EXPECT_NE(why.find("n=0"), std::string::npos) << why;
  EXPECT_FALSE(kbtest::family_accepts(family, family_case(1024, 32, 32), &why));
  EXPECT_NE(why.find("1048576 threads"), std::string::npos) << why;
}

}  // namespace
}  // namespace kb::hello
