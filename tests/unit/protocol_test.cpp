#include "case/case_outcome.hpp"
#include "case/case_request.hpp"
#include "protocol/codec.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <limits>

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
  const CaseRequest back = decode_case(encode_case(c));
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

TEST(Protocol, CaseRequestCarriesExtentsNotTheirText) {
  CaseRequest c;
  c.shape = parse_sizes("2^20")[0];
  const Record sent = encode_case(c);
  EXPECT_EQ(sent.at("shape"), "1,1048576,0,0");
  EXPECT_EQ(sent.at("block"), "0,0,0");
  EXPECT_EQ(decode_case(sent).shape.dims[0], 1048576);
  for (const char* shape : {"", "1,2", "1,2,3,4,5", "1,2,x,4", "2^20", "1,2,3,4 "}) {
    Record bad = sent;
    bad["shape"] = shape;
    EXPECT_THROW(decode_case(bad), std::runtime_error) << shape;
  }
}

CaseOutcome every_field_set() {
  CaseOutcome o;
  o.status = CaseStatus::verify_failed;
  o.message = "tab\there, newline\nthere, backslash \\ and = too";
  o.context_lost = true;
  o.bytes = 2.0 * 8192 * 8192 * 4;
  o.flops = 1.0 / 3.0;
  o.timing = TimingMethod::held;
  o.sample_launches = 21;
  o.samples = SampleSummary{37, 187.97612345678901, 187.5, 188.0000001, 0.1234567890123, 0.0049,
                            true};
  o.sample_list = {0.1, 1.0 / 7.0, 1e-300, 123456789.123456789};
  o.batch_us = 188.05432109876543;
  o.enqueue_us = 2.5;
  o.host_us = 205.25;
  o.host_idle_us = 11.125;
  o.captured_operations = 3;
  o.power_w = 505.7;
  o.energy_j = 0.095102;
  o.launch = LaunchShape{{132, 2, 1}, {1024, 1, 1}, 2};
  o.verification = VerificationFigures{std::numeric_limits<double>::denorm_min(), 1.2e-7,
                                       "sms=132;resident=16"};
  o.device_state = DeviceState{1980, 61, "power cap"};
  o.phases = PhaseSeconds{0.25, 1.0 / 3.0, 2e-6, 0.0123456789, 1.0 / 7.0};
  o.cupti = CuptiFigures{186.94321987654321, 180.5, 181.25, 2.5, 1.0 / 3.0, "k", 7};
  o.counters = "dram_throughput=91.2;dram_read_bytes=268435456";
  o.cupti_unavailable = "CUPTI refuses kernel tracing: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES";
  o.counters_unavailable = "CUPTI does not know l2_hit_rate on GH100";
  o.kernel_compiler = "nvrtc 13.0 -arch=sm_90 -std=c++17 -DTILE=32, with typedef float T, entry k";
  return o;
}

TEST(Protocol, EveryFieldOfAnOutcomeRoundTripsBitForBit) {
  const CaseOutcome sent = every_field_set();
  const std::string line = encode_record("result", encode_outcome(sent));
  std::string kind;
  Record fields;
  ASSERT_TRUE(decode_record(line.substr(0, line.size() - 1), kind, fields));
  const CaseOutcome got = decode_outcome(fields);
  EXPECT_EQ(got.status, sent.status);
  EXPECT_EQ(got.message, sent.message);
  EXPECT_TRUE(got.context_lost);
  EXPECT_EQ(got.bytes, sent.bytes);
  EXPECT_EQ(got.flops, sent.flops);
  EXPECT_EQ(got.timing, sent.timing);
  EXPECT_EQ(got.sample_launches, 21);
  ASSERT_TRUE(got.samples);
  EXPECT_EQ(got.samples->count, 37);
  EXPECT_EQ(got.samples->median_us, sent.samples->median_us);
  EXPECT_EQ(got.samples->min_us, sent.samples->min_us);
  EXPECT_EQ(got.samples->mean_us, sent.samples->mean_us);
  EXPECT_EQ(got.samples->stddev_us, sent.samples->stddev_us);
  EXPECT_EQ(got.samples->noise, sent.samples->noise);
  EXPECT_TRUE(got.samples->settled);
  EXPECT_EQ(got.sample_list, sent.sample_list);
  EXPECT_EQ(got.batch_us, sent.batch_us);
  EXPECT_EQ(got.enqueue_us, sent.enqueue_us);
  EXPECT_EQ(got.host_us, sent.host_us);
  EXPECT_EQ(got.host_idle_us, sent.host_idle_us);
  EXPECT_EQ(got.captured_operations, sent.captured_operations);
  EXPECT_EQ(got.power_w, sent.power_w);
  EXPECT_EQ(got.energy_j, sent.energy_j);
  ASSERT_TRUE(got.launch);
  EXPECT_EQ(got.launch->grid, sent.launch->grid);
  EXPECT_EQ(got.launch->block, sent.launch->block);
  EXPECT_EQ(got.launch->kernels, 2u);
  ASSERT_TRUE(got.verification);
  EXPECT_EQ(got.verification->max_rel_error, sent.verification->max_rel_error);
  EXPECT_EQ(got.verification->tolerance, sent.verification->tolerance);
  EXPECT_EQ(got.verification->metrics, sent.verification->metrics);
  ASSERT_TRUE(got.device_state);
  EXPECT_EQ(got.device_state->sm_clock_mhz, 1980u);
  EXPECT_EQ(got.device_state->temperature_c, 61u);
  EXPECT_EQ(got.device_state->throttle, "power cap");
  ASSERT_TRUE(got.phases);
  EXPECT_EQ(got.phases->timing, sent.phases->timing);
  EXPECT_EQ(got.phases->verify, sent.phases->verify);
  EXPECT_EQ(got.phases->cupti, sent.phases->cupti);
  EXPECT_EQ(got.phases->counters, sent.phases->counters);
  ASSERT_TRUE(got.cupti);
  EXPECT_EQ(got.cupti->us, sent.cupti->us);
  EXPECT_EQ(got.cupti->stream_us, sent.cupti->stream_us);
  EXPECT_EQ(got.cupti->busiest_us, sent.cupti->busiest_us);
  EXPECT_EQ(got.cupti->operations, sent.cupti->operations);
  EXPECT_EQ(got.cupti->other_operations, sent.cupti->other_operations);
  EXPECT_EQ(got.cupti->kernels, "k");
  EXPECT_EQ(got.cupti->launches, 7);
  EXPECT_EQ(got.counters, sent.counters);
  EXPECT_EQ(got.cupti_unavailable, sent.cupti_unavailable);
  EXPECT_EQ(got.counters_unavailable, sent.counters_unavailable);
  EXPECT_EQ(got.kernel_compiler, sent.kernel_compiler);
}

TEST(Protocol, AnOutcomeWithoutMeasurementsStaysWithout) {
  const CaseOutcome got = decode_outcome(
      encode_outcome(CaseOutcome::without_run(CaseStatus::unsupported, "not accepted: K < 1")));
  EXPECT_EQ(got.status, CaseStatus::unsupported);
  EXPECT_EQ(got.message, "not accepted: K < 1");
  EXPECT_FALSE(got.context_lost);
  EXPECT_FALSE(got.bytes || got.timing || got.samples || got.batch_us || got.host_us ||
               got.captured_operations || got.energy_j || got.launch || got.verification ||
               got.device_state || got.phases || got.cupti);
  EXPECT_TRUE(got.counters.empty() && got.cupti_unavailable.empty() &&
              got.counters_unavailable.empty());
  EXPECT_TRUE(got.sample_list.empty());
}

TEST(Protocol, NonFiniteMeasurementsRoundTrip) {
  CaseOutcome sent = CaseOutcome::without_run(CaseStatus::ok, "");
  sent.samples = SampleSummary{3, 1.0, 1.0, 1.0, 0.0, std::numeric_limits<double>::infinity(),
                               false};
  sent.verification = VerificationFigures{std::nan(""), 0.0, ""};
  const CaseOutcome got = decode_outcome(encode_outcome(sent));
  EXPECT_TRUE(std::isinf(got.samples->noise));
  EXPECT_TRUE(std::isnan(got.verification->max_rel_error));
}

TEST(Protocol, AMalformedOutcomeIsRefusedNamingTheField) {
  const Record good = encode_outcome(every_field_set());
  const auto refused = [&](const char* key, const char* value) {
    Record bad = good;
    if (value == nullptr) {
      bad.erase(key);
    } else {
      bad[key] = value;
    }
    try {
      decode_outcome(bad);
    } catch (const ProtocolError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refused("status", "fine").find("unknown status 'fine'"), std::string::npos);
  EXPECT_NE(refused("status", nullptr).find("'status'"), std::string::npos);
  EXPECT_NE(refused("median_us", "12us").find("'median_us' is not a number"), std::string::npos);
  EXPECT_NE(refused("median_us", nullptr).find("without 'median_us'"), std::string::npos);
  EXPECT_NE(refused("grid", "132x2").find("'grid'"), std::string::npos);
  EXPECT_NE(refused("timing", "fast").find("unknown timing"), std::string::npos);
  EXPECT_NE(refused("sample_list", "1,,2").find("sample"), std::string::npos);
  EXPECT_NE(refused("cupti_busiest_us", nullptr).find("'cupti_busiest_us'"), std::string::npos);
  EXPECT_NE(refused("cupti_us", "fast").find("'cupti_us' is not a number"), std::string::npos);
  EXPECT_NE(refused("fatal", "1").find("unknown field 'fatal'"), std::string::npos);
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
