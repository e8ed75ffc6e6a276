#include "input_error.hpp"
#include "loader.hpp"
#include "plan.hpp"

#include <gtest/gtest.h>

namespace kb {
namespace {

std::vector<std::shared_ptr<const LoadedPlugin>> test_plugins() {
  return discover_plugins({std::string(KBT_PLUGIN_ROOT) + "/faulty"}).plugins;
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
  request.blocks = "32,64";  // ignored: the plugin chooses its own launch shape
  request.dtypes = "int32,float32";
  const Plan plan = plan_sweep(good, request);
  ASSERT_EQ(plan.cases.size(), 6u);  // 3 sizes x (int32 run + float32 unsupported)
  int unsupported = 0;
  for (const auto& c : plan.cases) {
    EXPECT_TRUE(c.request.block.own());
    EXPECT_EQ(c.request.device, -1);  // host plugin
    if (!c.unsupported_reason.empty()) {
      ++unsupported;
      EXPECT_EQ(c.request.dtype, KB_DTYPE_F32);
      EXPECT_NE(c.unsupported_reason.find("plugin supports int32"), std::string::npos);
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
  EXPECT_TRUE(plan.cases[0].unsupported_reason.empty());
  EXPECT_NE(plan.cases[1].unsupported_reason.find("at most 10^6 elements"), std::string::npos);
}

TEST(Plan, UnknownFamilyNeedsSizes) {
  const auto good = select_plugins(test_plugins(), {}, {"testing/good"});
  EXPECT_THROW(plan_sweep(good, SweepRequest{}), InputError);
}

TEST(Plan, CaseKeyIdentifiesPluginDtypeOpShapeBlockDevice) {
  const auto good = select_plugins(test_plugins(), {}, {"testing/good"});
  SweepRequest request;
  request.sizes = "10";
  request.dtypes = "int32";
  const Plan plan = plan_sweep(good, request);
  EXPECT_EQ(case_key(plan.cases.at(0)), "testing/good|int32||10|-|host");
}

}  // namespace
}  // namespace kb
