#include "plan/plan.hpp"
#include "support/kbench_process.hpp"
#include "util/input_error.hpp"

#include <gtest/gtest.h>

#include <set>

namespace kb {
namespace {

std::vector<std::shared_ptr<const PluginInfo>> test_plugins() {
  return kbtest::test_plugins("faulty");
}

Plan plan_sweep(const std::vector<std::shared_ptr<const PluginInfo>>& plugins,
                const SweepRequest& request) {
  return kb::plan_sweep(plugins, request, kb::FamilyTable({}, plugins), kbtest::probe());
}

// plugin|dtype|op|shape|block|device
std::string identity(const PlannedCase& c) {
  return c.plugin->name + "|" + dtype_name(c.request.dtype) + "|" + c.request.op + "|" +
         format_extent(c.request.shape) + "|" + format_block(c.request.block) + "|" +
         (c.request.device < 0 ? "host" : std::to_string(c.request.device));
}

std::string reason(const PlannedCase& c) {
  return c.outcome ? c.outcome->message : "";
}

TEST(Plan, SelectsByFamilyAndGlobAndNamesWhatMatchedNothing) {
  const auto all = test_plugins();
  EXPECT_EQ(select_plugins(all, {}, {"testing/setup_*"}).size(), 3u);
  EXPECT_EQ(select_plugins(all, {"testing"}, {}).size(), all.size());
  try {
    select_plugins(all, {}, {"testing/nope"});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("testing/nope"), std::string::npos);
  }
  EXPECT_THROW(select_plugins(all, {"transpose"}, {}), InputError);
}

TEST(Plan, CrossProductRespectsDtypesAndOwnLaunchShape) {
  const auto good = select_plugins(test_plugins(), {}, {"testing/good"});
  SweepRequest request;
  request.sizes = "10,20,30";
  request.dtypes = "int32,float32";
  // No plugin selected takes a block: --blocks is refused, not dropped.
  EXPECT_THROW(check_blocks_request(good, "32,64"), InputError);
  const Plan plan = plan_sweep(good, request);
  ASSERT_EQ(plan.cases.size(), 6u);  // 3 sizes x (int32 run + float32 unsupported)
  int unsupported = 0;
  for (const auto& c : plan.cases) {
    EXPECT_TRUE(c.request.block.own());
    EXPECT_EQ(c.request.device, -1);  // host plugin
    if (c.outcome) {
      ++unsupported;
      EXPECT_EQ(c.outcome->status, kb::CaseStatus::unsupported);
      EXPECT_EQ(c.request.dtype, KB_DTYPE_F32);
      EXPECT_NE(reason(c).find("plugin supports int32"), std::string::npos);
    }
  }
  EXPECT_EQ(unsupported, 3);
}

TEST(Plan, AcceptanceTurnsARefusedShapeIntoAnUnsupportedCase) {
  const auto good = select_plugins(test_plugins(), {}, {"testing/good"});
  SweepRequest request;
  request.sizes = "1000,2000000";
  request.dtypes = "int32";
  const Plan plan = plan_sweep(good, request);
  ASSERT_EQ(plan.cases.size(), 2u);
  EXPECT_FALSE(plan.cases[0].outcome);
  EXPECT_NE(reason(plan.cases[1]).find("at most 10^6 elements"), std::string::npos);
}

TEST(Plan, UnknownFamilyNeedsSizes) {
  const auto good = select_plugins(test_plugins(), {}, {"testing/good"});
  EXPECT_THROW(plan_sweep(good, SweepRequest{}), InputError);
}

TEST(Plan, DescribesACaseByPluginDtypeOpShapeBlockDevice) {
  const auto good = select_plugins(test_plugins(), {}, {"testing/good"});
  SweepRequest request;
  request.sizes = "10";
  request.dtypes = "int32";
  const Plan plan = plan_sweep(good, request);
  EXPECT_EQ(describe_case(plan.cases.at(0)), "testing/good int32 10 -");
}

}  // namespace
}  // namespace kb

namespace kb {
namespace {

std::vector<std::shared_ptr<const PluginInfo>> faulty_and_good() { return test_plugins(); }

TEST(PlanZip, PairsSizesWithBlocksInsteadOfTheCrossProduct) {
  // testing/good as a plugin that takes blocks (its accepts() looks at none).
  auto takes_blocks =
      std::make_shared<PluginInfo>(*select_plugins(faulty_and_good(), {}, {"testing/good"}).front());
  takes_blocks->flags &= ~KB_FLAG_OWN_LAUNCH_SHAPE;
  const std::vector<std::shared_ptr<const PluginInfo>> plugins = {takes_blocks};
  SweepRequest request;
  request.sizes = "10,20,30";
  request.blocks = "32,64";
  request.dtypes = "int32";
  request.zip = true;
  EXPECT_THROW(plan_sweep(plugins, request), InputError);
  request.blocks = "32";
  const Plan plan = plan_sweep(plugins, request);
  ASSERT_EQ(plan.cases.size(), 3u);
  for (const auto& c : plan.cases) EXPECT_EQ(c.request.block.dims[0], 32);
}

TEST(PlanCases, ExplicitCasesReplaceTheSweep) {
  SweepRequest request;
  request.cases = {"testing/good int32 100", "testing/good  int32   2000000", "testing/verify_wrong int32 7"};
  const Plan plan = plan_sweep(faulty_and_good(), request);
  ASSERT_EQ(plan.cases.size(), 3u);
  EXPECT_EQ(identity(plan.cases[0]), "testing/good|int32||100|-|host");
  EXPECT_NE(reason(plan.cases[1]).find("at most 10^6"), std::string::npos);
  EXPECT_EQ(plan.cases[2].plugin->name, "testing/verify_wrong");
  for (const char* bad : {"testing/good int32", "testing/nope int32 5", "testing/good int32 5x"}) {
    request.cases = {bad};
    EXPECT_THROW(plan_sweep(faulty_and_good(), request), InputError) << bad;
  }
}

TEST(PlanRepeat, RepeatsTheWholePlanOnePassAfterAnother) {
  SweepRequest request;
  request.sizes = "1,2";
  request.dtypes = "int32,float32";
  const Plan plan = plan_sweep(faulty_and_good(), request);
  const Plan repeated = repeat(plan, 3);
  ASSERT_EQ(repeated.cases.size(), 3 * plan.cases.size());
  for (std::size_t i = 0; i < repeated.cases.size(); ++i) {
    const PlannedCase& c = repeated.cases[i];
    EXPECT_EQ(c.repetition, static_cast<int>(i / plan.cases.size()));
    EXPECT_EQ(identity(c), identity(plan.cases[i % plan.cases.size()]));
  }
  EXPECT_EQ(repeat(plan, 1).cases.size(), plan.cases.size());
}

TEST(PlanShard, ShardsAreDisjointAndTogetherTheWholePlanForAnyCount) {
  SweepRequest request;
  request.sizes = "1,2,3,4,5,6,7,8,9,10,11,12,13";
  request.dtypes = "int32,float32";
  const Plan plan = plan_sweep(faulty_and_good(), request);
  std::multiset<std::string> all;
  for (const auto& c : plan.cases) all.insert(identity(c));
  for (int count : {1, 2, 3, 7, 64, 1000}) {
    std::multiset<std::string> united;
    for (int i = 0; i < count; ++i) {
      const Plan slice = shard(plan, std::to_string(i) + "/" + std::to_string(count));
      for (const auto& c : slice.cases) united.insert(identity(c));
      EXPECT_LE(slice.cases.size(), plan.cases.size() / count + 1);
    }
    EXPECT_EQ(united, all) << count << " shards";
  }
  for (const char* bad : {"2/2", "1", "a/3", "0/0", "1/2x", "-1/3"}) {
    EXPECT_THROW(shard(plan, bad), InputError) << bad;
  }
}

}  // namespace
}  // namespace kb
