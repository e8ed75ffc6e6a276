// The closing `time:` line's lanes: each lane's wall time, slowest first, and nothing for a run of
// one lane, whose time is the run's.
#include "util/lane_times.hpp"

#include <gtest/gtest.h>

namespace kb {
namespace {

TEST(LaneTimes, SlowestFirstAndNothingForOneLane) {
  EXPECT_EQ(lane_times_text({}), "");
  EXPECT_EQ(lane_times_text({{"host", 70.44}}), "");
  EXPECT_EQ(lane_times_text({{"device 0", 53.04}, {"host", 70.44}, {"device 1", 53.04}}),
            "; lanes: host 70.4 s, device 0 53.0 s, device 1 53.0 s");
}

}  // namespace
}  // namespace kb
