// What CUPTI adds to a row, without a GPU: `--metrics` lists (named sets, short names, the
// profiling API's own names, unknown words refused in one line), the `counters` cell, the fourth
// clock's figures from synthetic activity records, the row's new columns, and a machine without
// CUPTI or without a device saying so in one line instead of failing.
#include "device/counters.hpp"
#include "device/cupti_library.hpp"
#include "measure/counter_profiler.hpp"
#include "measure/cupti_clock.hpp"
#include "store/result_record.hpp"
#include "judge/row_builder.hpp"
#include "util/input_error.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace kb;

std::vector<std::string> labels_of(const std::vector<Counter>& counters) {
  std::vector<std::string> labels;
  for (const auto& c : counters) labels.push_back(c.label);
  return labels;
}

std::string refusal(const std::string& list) {
  try {
    parse_counter_list(list);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(MetricsOption, NamedSetsExpandToTheirCountersInOrder) {
  const auto memory = parse_counter_list("memory");
  EXPECT_EQ(labels_of(memory),
            (std::vector<std::string>{"dram_throughput", "dram_read_bytes", "dram_write_bytes",
                                      "l2_hit_rate", "global_load_sectors_per_request",
                                      "global_store_sectors_per_request"}));
  EXPECT_EQ(memory.front().name, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
  // The list: DRAM bytes and throughput, L2 hits, bank conflicts, occupancy, instructions.
  const auto defaults = labels_of(parse_counter_list("default"));
  for (const char* wanted : {"dram_throughput", "dram_read_bytes", "dram_write_bytes", "l2_hit_rate",
                             "shared_load_bank_conflicts", "shared_store_bank_conflicts",
                             "achieved_occupancy", "instructions"}) {
    EXPECT_NE(std::find(defaults.begin(), defaults.end(), wanted), defaults.end()) << wanted;
  }
  EXPECT_EQ(parse_counter_list("all").size(), named_counters().size());
}

TEST(MetricsOption, EachCounterOnceWhateverNamesIt) {
  const auto counters =
      parse_counter_list("dram_throughput, memory,dram__bytes_read.sum,shared,instructions");
  const auto labels = labels_of(counters);
  EXPECT_EQ(labels.front(), "dram_throughput");
  EXPECT_EQ(std::count(labels.begin(), labels.end(), "dram_read_bytes"), 1);
  EXPECT_EQ(std::count(labels.begin(), labels.end(), "dram_throughput"), 1);
  EXPECT_EQ(labels.back(), "instructions");
}

TEST(MetricsOption, AMetricNameOfTheProfilingApiIsTakenAsItIs) {
  const auto counters = parse_counter_list("sm__cycles_elapsed.avg.per_second,lts__t_bytes.sum");
  ASSERT_EQ(counters.size(), 2u);
  EXPECT_EQ(counters[0].label, "sm__cycles_elapsed.avg.per_second");
  EXPECT_EQ(counters[0].name, "sm__cycles_elapsed.avg.per_second");
}

TEST(MetricsOption, AnUnknownNameIsRefusedInOneLineNamingIt) {
  for (const char* list : {"memroy", "dram_bytes", "DRAM__bytes.sum", "dram__bytes", "a..b",
                           "memory,", "memory,,shared", "dram__.sum"}) {
    const std::string why = refusal(list);
    EXPECT_NE(why, "accepted") << list;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    EXPECT_EQ(why.rfind("--metrics", 0), 0u) << why;
  }
  EXPECT_NE(refusal("memroy").find("unknown counter 'memroy'"), std::string::npos);
  EXPECT_NE(refusal("memroy").find("sets: default, memory"), std::string::npos);
}

TEST(CountersCell, RoundTripsCountsWholeAndRatiosToSixDigits) {
  const std::string text = counters_text({{"dram_throughput", 91.23456789},
                                          {"dram_read_bytes", 268435456},
                                          {"sm__x.sum", 1e20}});
  EXPECT_EQ(text, "dram_throughput=91.2346;dram_read_bytes=268435456;sm__x.sum=1e+20");
  const auto values = parse_counters_text(text);
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[1].first, "dram_read_bytes");
  EXPECT_EQ(values[1].second, 268435456.0);
  EXPECT_EQ(counter_value(text, "dram_read_bytes"), 268435456.0);
  // A short name's metric name finds it too, and the other way round.
  EXPECT_EQ(counter_value(text, "dram__bytes_read.sum"), 268435456.0);
  EXPECT_EQ(counter_value("dram__bytes_read.sum=5", "dram_read_bytes"), 5.0);
  EXPECT_FALSE(counter_value(text, "l2_hit_rate"));
  EXPECT_TRUE(parse_counters_text("").empty());
  EXPECT_EQ(parse_counters_text("a=1;junk;b=x;=3;c=2").size(), 2u);
}

// The H100's copy of 8192^2 floats: the profiler said 61.9% (of its range, idle time included);
// its 535 MB over the kernel's 177.3 us are 90% of 3352 GB/s.
TEST(CountersCell, DramThroughputIsTheBytesOverTheKernelsTime) {
  std::vector<std::pair<std::string, double>> values = {
      {"dram_throughput", 61.883}, {"dram_read_bytes", 268455424}, {"dram_write_bytes", 266721536}};
  set_dram_throughput(values, 177.301, 3352.3);
  EXPECT_NEAR(values[0].second, 90.05, 0.05);
  // Without the bytes, a time or a bandwidth: the profiler's figure, as it was.
  std::vector<std::pair<std::string, double>> alone = {{"dram_throughput", 61.883}};
  set_dram_throughput(alone, 177.301, 3352.3);
  EXPECT_EQ(alone[0].second, 61.883);
  std::vector<std::pair<std::string, double>> untimed = {
      {"dram_throughput", 61.883}, {"dram_read_bytes", 1}, {"dram_write_bytes", 1}};
  set_dram_throughput(untimed, 0, 3352.3);
  EXPECT_EQ(untimed[0].second, 61.883);
}

TEST(CountersCell, WhichWayIsBetter) {
  EXPECT_FALSE(counter_smaller_is_better("dram_throughput"));
  EXPECT_FALSE(counter_smaller_is_better("l2_hit_rate"));
  EXPECT_TRUE(counter_smaller_is_better("shared_load_bank_conflicts"));
  EXPECT_TRUE(counter_smaller_is_better("dram__bytes_read.sum"));
  EXPECT_FALSE(counter_smaller_is_better("lts__t_sector_hit_rate.pct"));
  EXPECT_FALSE(counter_smaller_is_better("sm__cycles_elapsed.avg.per_second"));
  EXPECT_TRUE(is_counter_name("dram_throughput"));
  EXPECT_TRUE(is_counter_name("dram__bytes.sum"));
  EXPECT_FALSE(is_counter_name("gbps"));
  EXPECT_EQ(counter_label("dram__bytes_read.sum"), "dram_read_bytes");
}

// --- The fourth clock's figures from its records ---------------------------------------------

DeviceActivity kernel(std::uint64_t start, std::uint64_t end, std::uint32_t stream) {
  return {DeviceActivity::Kind::kernel, start, end, stream, 0};
}

TEST(CuptiClockFigures, KernelTimePerLaunchOnTheGivenStream) {
  // Four launches of one 20 us kernel each on stream 7.
  std::vector<DeviceActivity> records;
  for (int i = 0; i < 4; ++i) records.push_back(kernel(1000000 + i * 21000, 1020000 + i * 21000, 7));
  const CuptiTiming t = summarize_activity(records, 7, 4, 0);
  EXPECT_DOUBLE_EQ(t.launch_us, 20.0);
  EXPECT_DOUBLE_EQ(t.stream_us, 20.0);
  EXPECT_DOUBLE_EQ(t.busiest_us, 20.0);
  EXPECT_DOUBLE_EQ(t.operations, 1.0);
  EXPECT_DOUBLE_EQ(t.other_operations, 0.0);
}

TEST(CuptiClockFigures, CopiesCountAndTheColdFlushDoesNot) {
  const std::uint64_t flush = 128ull << 20;
  std::vector<DeviceActivity> records = {
      {DeviceActivity::Kind::memset, 0, 50000, 7, flush},      // the flush before launch 1
      {DeviceActivity::Kind::memcpy, 60000, 70000, 7, 4096},   // launch 1: a copy
      {DeviceActivity::Kind::memset, 80000, 130000, 7, flush},  // the flush before launch 2
      {DeviceActivity::Kind::memcpy, 140000, 150000, 7, 4096}, // launch 2
      {DeviceActivity::Kind::memset, 150000, 151000, 7, 64},   // the plugin's own memset
  };
  const CuptiTiming t = summarize_activity(records, 7, 2, flush);
  EXPECT_DOUBLE_EQ(t.launch_us, 10.5);
  EXPECT_DOUBLE_EQ(t.operations, 1.5);
  // Without a flush, the same memsets are the plugin's.
  EXPECT_DOUBLE_EQ(summarize_activity(records, 7, 2, 0).operations, 2.5);
}

TEST(CuptiClockFigures, KernelsOnAnotherStreamAreCountedAndTheBusiestStreamNamed) {
  // Per launch: 5 us on the given stream 7, 30 us on a private stream 9.
  const std::vector<DeviceActivity> records = {kernel(0, 5000, 7), kernel(0, 30000, 9),
                                               kernel(40000, 45000, 7), kernel(40000, 70000, 9)};
  const CuptiTiming t = summarize_activity(records, 7, 2, 0);
  EXPECT_DOUBLE_EQ(t.launch_us, 35.0);
  EXPECT_DOUBLE_EQ(t.stream_us, 5.0);
  EXPECT_DOUBLE_EQ(t.busiest_us, 30.0);
  EXPECT_DOUBLE_EQ(t.operations, 2.0);
  EXPECT_DOUBLE_EQ(t.other_operations, 1.0);
  EXPECT_DOUBLE_EQ(summarize_activity({}, 7, 3, 0).operations, 0.0);
}

// --- No CUPTI, no device: one line, never a failed case ---------------------------------------

TEST(CuptiLibrary, WhereItIsLookedFor) {
  EXPECT_EQ(cupti_candidates("/opt/x/libcupti.so.13", "/cuda"),
            std::vector<std::string>{"/opt/x/libcupti.so.13"});
  EXPECT_TRUE(cupti_candidates("none", nullptr).empty());
  const auto found = cupti_candidates(nullptr, "/opt/cuda-13");
  ASSERT_GE(found.size(), 3u);
  EXPECT_EQ(found[0], "libcupti.so.13");
  EXPECT_NE(std::find(found.begin(), found.end(), "/opt/cuda-13/lib64/libcupti.so"), found.end());
  EXPECT_NE(std::find(found.begin(), found.end(), "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"),
            found.end());
}

TEST(CuptiLibrary, AMissingLibrarySaysWhyInOneLine) {
  const CuptiLibrary missing({"/nonexistent/libcupti.so.13"});
  EXPECT_FALSE(missing.loaded());
  EXPECT_NE(missing.why_not().find("cannot load libcupti.so"), std::string::npos) << missing.why_not();
  EXPECT_EQ(missing.why_not().find('\n'), std::string::npos);
  EXPECT_EQ(missing.symbol("cuptiGetVersion"), nullptr);
  const CuptiLibrary none(cupti_candidates("none", nullptr));
  EXPECT_EQ(none.why_not(), "KBENCH_CUPTI_LIBRARY is 'none'");
}

TEST(CuptiLibrary, WithoutItTheClockAndTheCountersStayOffAndLaunchNothing) {
  const CuptiLibrary missing({"/nonexistent/libcupti.so.13"});
  int launched = 0;
  const LaunchOnce launch = [&](cudaStream_t) {
    ++launched;
    return KB_OK;
  };
  kb_message message{};
  CuptiClock clock(missing);
  EXPECT_EQ(clock.why_not(), missing.why_not());
  std::optional<CuptiTiming> timing;
  EXPECT_EQ(clock.trace(launch, nullptr, 10, nullptr, message, timing), KB_OK);
  EXPECT_FALSE(timing);
  CounterProfiler profiler(0, parse_counter_list("memory"), missing);
  std::optional<CounterReading> reading;
  EXPECT_EQ(profiler.collect(launch, nullptr, nullptr, message, reading), KB_OK);
  EXPECT_FALSE(reading);
  EXPECT_EQ(profiler.why_not(), missing.why_not());
  EXPECT_EQ(launched, 0);
}

TEST(CuptiLibrary, TheToolkitsCuptiWithoutADeviceGivesOneLineAndNoCounters) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) {
    GTEST_SKIP() << "a CUDA device is present: the GPU tests read real counters";
  }
  const CuptiLibrary& cupti = CuptiLibrary::get();
  if (!cupti.loaded()) GTEST_SKIP() << "no CUPTI here: " << cupti.why_not();
  EXPECT_GE(cupti.version(), 130000u);
  int launched = 0;
  const LaunchOnce launch = [&](cudaStream_t) {
    ++launched;
    return KB_OK;
  };
  kb_message message{};
  CounterProfiler profiler(0, parse_counter_list("default"));
  std::optional<CounterReading> reading;
  EXPECT_EQ(profiler.collect(launch, nullptr, nullptr, message, reading), KB_OK);
  EXPECT_FALSE(reading);
  EXPECT_FALSE(profiler.why_not().empty());
  EXPECT_EQ(profiler.why_not().find('\n'), std::string::npos) << profiler.why_not();
  EXPECT_EQ(launched, 0);
}

// --- The row's columns -------------------------------------------------------------------------

TEST(CuptiColumns, TheFourthClockAndTheCountersInTheRow) {
  auto plugin = std::make_shared<PluginInfo>();
  plugin->name = "transpose/copy";
  plugin->family = "transpose";
  plugin->version = "1";
  PlannedCase c;
  c.plugin = plugin;
  c.request.dtype = KB_DTYPE_F32;
  CaseOutcome outcome;
  outcome.status = CaseStatus::ok;
  outcome.samples = SampleSummary{20, 187.5, 187.0, 187.6, 0.2, 0.002, true};
  outcome.timing = TimingMethod::held;
  outcome.cupti = CuptiFigures{186.94321, 186.94321, 186.94321, 1, 0};
  outcome.counters = "dram_throughput=91.2;dram_read_bytes=268435456";
  ResultCells row = build_row({"r", "h", "hot"}, c, nullptr, {}, outcome);
  EXPECT_EQ(row.cupti_us, "186.943");
  EXPECT_EQ(row.cupti_kernels, "1");
  EXPECT_EQ(row.counters, "dram_throughput=91.2;dram_read_bytes=268435456");
  // After referee, before a kernel file's three columns.
  constexpr std::size_t cupti = column_of("cupti_us");
  EXPECT_STREQ(kResultHeader[cupti - 1], "referee");
  EXPECT_STREQ(kResultHeader[cupti + 2], "counters");
  EXPECT_STREQ(kResultHeader[cupti + 3], "kernel_file");
  // A row read back keeps them.
  const ResultRecord record = record_of(row);
  EXPECT_EQ(record.cupti_us, 186.943);
  EXPECT_EQ(record.cupti_kernels, 1.0);
  EXPECT_EQ(record.counters, outcome.counters);
  // Not traced: empty cells.
  outcome.cupti.reset();
  outcome.counters.clear();
  row = build_row({"r", "h", "hot"}, c, nullptr, {}, outcome);
  EXPECT_EQ(row.cupti_us, "");
  EXPECT_EQ(row.cupti_kernels, "");
  EXPECT_EQ(row.counters, "");
}

}  // namespace

// What ran, by name: demangled, parameters left out, a vendor library's kernels said so.
TEST(CuptiKernelNames, ReadableDemangledAndVendorsSaid) {
  EXPECT_EQ(kb::readable_kernel_name("_Z9transposePKjPjll"), "transpose");
  EXPECT_EQ(kb::readable_kernel_name("_ZN3cub18DeviceReduceKernelIfEEvPKfPfi"),
            "cub::DeviceReduceKernel<float> [CUB]");
  EXPECT_EQ(kb::readable_kernel_name("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32"),
            "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32 [cuBLAS]");
  EXPECT_EQ(kb::readable_kernel_name("plain_c_name"), "plain_c_name");
}

TEST(CuptiKernelNames, EachKernelOfALaunchWithHowOftenItRan) {
  using kb::DeviceActivity;
  std::vector<DeviceActivity> records;
  for (int launch = 0; launch < 2; ++launch) {
    records.push_back({DeviceActivity::Kind::kernel, 0, 10, 7, 0, "_ZN3cub18DeviceReduceKernelIfEEvPKfPfi"});
    records.push_back({DeviceActivity::Kind::memset, 10, 11, 7, 4, ""});
    records.push_back({DeviceActivity::Kind::kernel, 11, 12, 7, 0, "_Z6finishPf"});
  }
  const kb::CuptiTiming t = kb::summarize_activity(records, 7, 2, 0);
  EXPECT_EQ(kb::kernel_names_text(t.kernels), "cub::DeviceReduceKernel<float> [CUB] x1; finish x1");
}
