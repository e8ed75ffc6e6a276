// The planner on synthetic devices: which code each case runs (the row's `code`), and a plugin
// without code for the device `unsupported` with both architectures, never run. Real test plugins
// (tests/plugins/faulty_cuda.cu built for sm_90 and compute_90, for sm_80 alone, for compute_80
// alone, for sm_90a alone), through the real probe process; no GPU needed.
#include "plan/plan.hpp"
#include "plugin/kernel_manifest.hpp"
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <map>

namespace kb {
namespace {

std::vector<std::shared_ptr<const PluginInfo>> code_plugins() {
  auto plugins = kbtest::test_plugins("faulty_cuda");
  const auto more = kbtest::test_plugins("device_code");
  plugins.insert(plugins.end(), more.begin(), more.end());
  return select_plugins(plugins, {},
                        {"gpu_testing/none", "gpu_testing/wrong_arch", "code_testing/*"});
}

// plugin -> "code" of a planned case, or "unsupported: message"
std::map<std::string, std::string> planned_on(ComputeCapability device) {
  SweepRequest request;
  request.sizes = "1000";
  request.dtypes = "int32";
  request.capabilities[0] = device;
  const Plan plan = plan_sweep(code_plugins(), request, FamilyTable({}, {}), kbtest::probe());
  std::map<std::string, std::string> outcome;
  for (const auto& c : plan.cases) {
    outcome[c.plugin->name] = c.outcome ? std::string(status_name(c.outcome->status)) + ": " +
                                              c.outcome->message
                                        : c.code;
  }
  return outcome;
}

std::string without_maker(const std::string& code) { return code.substr(0, code.find(" (")); }

TEST(PlanDeviceCode, EachCaseSaysWhichCodeRunsOnAnH100) {
  const auto on = planned_on({9, 0});
  EXPECT_EQ(without_maker(on.at("gpu_testing/none")), "sm_90");
  EXPECT_EQ(without_maker(on.at("code_testing/ptx80")), "ptx-jit compute_80");
  EXPECT_EQ(without_maker(on.at("code_testing/sm90a")), "sm_90a");
  EXPECT_EQ(on.at("gpu_testing/wrong_arch"),
            "unsupported: no code for this device (compute capability 9.0, sm_90): built for "
            "sm_80");
}

TEST(PlanDeviceCode, AStrategyWithoutCodeForTheDeviceIsUnsupportedNamingBoth) {
  const auto a100 = planned_on({8, 0});
  EXPECT_EQ(without_maker(a100.at("gpu_testing/wrong_arch")), "sm_80");
  EXPECT_EQ(a100.at("gpu_testing/none"), "unsupported: no code for this device (compute capability "
                                         "8.0, sm_80): built for sm_90, compute_90");
  EXPECT_EQ(a100.at("code_testing/sm90a"), "unsupported: no code for this device (compute "
                                           "capability 8.0, sm_80): built for sm_90a");
  const auto b200 = planned_on({10, 0});
  EXPECT_EQ(without_maker(b200.at("gpu_testing/none")), "ptx-jit compute_90");
  EXPECT_EQ(b200.at("code_testing/sm90a").rfind("unsupported: no code for this device", 0), 0u);
}

TEST(PlanDeviceCode, WithoutTheDevicesCapabilityNothingIsClaimedOrRefused) {
  SweepRequest request;
  request.sizes = "1000";
  request.dtypes = "int32";
  const Plan plan = plan_sweep(code_plugins(), request, FamilyTable({}, {}), kbtest::probe());
  ASSERT_EQ(plan.cases.size(), 4u);
  for (const auto& c : plan.cases) {
    EXPECT_FALSE(c.outcome) << c.plugin->name;
    EXPECT_EQ(c.code, "") << c.plugin->name;
  }
}

// A kernel file's part, as kernel_part makes it, for the code alone.
PluginInfo kernel_file(KernelFormat format, const std::string& contents,
                       std::vector<std::string> options = {}) {
  auto manifest = std::make_shared<KernelManifest>();
  manifest->format = format;
  manifest->contents = contents;
  manifest->options = std::move(options);
  PluginInfo part;
  part.kind = PartKind::kernel;
  part.device = KB_DEVICE_CUDA;
  part.kernel = manifest;
  return part;
}

TEST(DeviceCode, KernelFilesRunWhatTheyAreOrWhatNvrtcMakesForTheDevice) {
  DeviceCode code({{0, {9, 0}}, {1, {10, 0}}}, JitPolicy{});
  // A .cu is compiled for the device itself, unless its options name an architecture.
  EXPECT_EQ(code.of(kernel_file(KernelFormat::source, ""), 0).code, "sm_90");
  EXPECT_EQ(code.of(kernel_file(KernelFormat::source, ""), 1).code, "sm_100");
  EXPECT_EQ(code.of(kernel_file(KernelFormat::source, "", {"-arch=compute_80"}), 0).code,
            "ptx-jit compute_80");
  const PluginInfo for_sm90a = kernel_file(KernelFormat::source, "", {"--gpu-architecture=sm_90a"});
  EXPECT_EQ(code.of(for_sm90a, 1).refusal,
            "no code for this device (compute capability 10.0, sm_100): built for sm_90a");
  const PluginInfo ptx = kernel_file(KernelFormat::ptx, ".version 8.7\n.target sm_80\n");
  EXPECT_EQ(code.of(ptx, 0).code, "ptx-jit compute_80 (ptx 8.7)");
  // No device (a kernel file checked without one): nothing known.
  EXPECT_EQ(code.of(ptx, -1).code, "");
}

TEST(DeviceCode, ALibraryWhoseCodeCannotBeReadIsTakenAtItsDeclaredWord) {
  PluginInfo declared;
  declared.device = KB_DEVICE_CUDA;
  declared.file = "/nonexistent/plugin.so";
  declared.cuda_archs = "sm_90a";
  DeviceCode code({{0, {9, 0}}, {1, {8, 0}}}, JitPolicy{});
  EXPECT_EQ(code.of(declared, 0).code, "sm_90a");
  EXPECT_EQ(code.of(declared, 1).refusal,
            "no code for this device (compute capability 8.0, sm_80): built for sm_90a");
  declared.file = "/nonexistent/other.so";  // read once per file
  declared.cuda_archs = "";                  // nothing to go by: run it, and let the driver say
  EXPECT_EQ(code.of(declared, 1).refusal, "");
  // CUDA_FORCE_PTX_JIT=1 in the workers' environment: machine code alone will not load.
  declared.cuda_archs = "sm_90";
  DeviceCode forced({{0, {9, 0}}}, JitPolicy{true, false});
  EXPECT_EQ(forced.of(declared, 0).refusal,
            "no code for this device (compute capability 9.0, sm_90): built for sm_90; "
            "CUDA_FORCE_PTX_JIT=1 lets the driver load PTX alone");
}

}  // namespace
}  // namespace kb
