// The code reader's choice held to the driver's own: each test plugin's embedded fat binary loaded
// through the driver (cudaLibraryLoadData), and its kernels' binaryVersion and ptxVersion
// (cudaFuncGetAttributes) against what choose_image said this device runs; then the rows of the
// same plugins say it, and the one without code for the device is unsupported, never run.
#include "device/code_images.hpp"
#include "device/device_info.hpp"
#include "support/kbench_process.hpp"

#include <cuda_runtime_api.h>

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace kb {
namespace {

// binaryVersion and ptxVersion of every kernel of a fat binary as the driver loads it; nothing
// where it loads none.
std::optional<std::vector<std::pair<int, int>>> driver_versions(const std::string& fatbin) {
  cudaLibrary_t library = nullptr;
  if (cudaLibraryLoadData(&library, fatbin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0) !=
      cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  unsigned count = 0;
  std::optional<std::vector<std::pair<int, int>>> versions;
  if (cudaLibraryGetKernelCount(&count, library) == cudaSuccess && count > 0) {
    std::vector<cudaKernel_t> kernels(count);
    if (cudaLibraryEnumerateKernels(kernels.data(), count, library) == cudaSuccess) {
      versions.emplace();
      for (cudaKernel_t kernel : kernels) {
        cudaFuncAttributes attributes{};
        if (cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernel)) !=
            cudaSuccess) {
          versions.reset();  // lazily loaded: the image is sought, and missed, only now
          break;
        }
        versions->emplace_back(attributes.binaryVersion, attributes.ptxVersion);
      }
    }
  }
  cudaGetLastError();
  cudaLibraryUnload(library);
  return versions;
}

TEST(DeviceCodeGpu, TheDriverRunsTheCodeTheReaderChose) {
  KBTEST_REQUIRE_GPU();
  const ComputeCapability device = device_capability(0);
  const std::string faulty = kbtest::test_plugin_dir("faulty_cuda");
  const std::string variants = kbtest::test_plugin_dir("device_code");
  for (const std::string& file :
       {faulty + "/kbt_cuda_none.so", faulty + "/kbt_cuda_wrong_arch.so",
        variants + "/kbt_code_ptx80.so", variants + "/kbt_code_sm90a.so"}) {
    const auto fatbins = read_fatbins_of_file(file);
    ASSERT_FALSE(fatbins.empty()) << file;
    for (const auto& fatbin : fatbins) {
      const auto units = read_code_units(fatbin);
      ASSERT_EQ(units.size(), 1u) << file;
      const auto chosen = choose_image(units.front(), device);
      const auto versions = driver_versions(fatbin);
      ASSERT_EQ(versions.has_value(), chosen.has_value())
          << file << ": the reader chose " << (chosen ? code_text(*chosen) : "nothing");
      if (!chosen) continue;
      ASSERT_FALSE(versions->empty()) << file;
      for (const auto& [binary, ptx] : *versions) {
        if (chosen->kind == CodeImage::Kind::machine) {
          EXPECT_EQ(binary, chosen->arch) << file;
        } else {  // compiled by the driver for this device, from the PTX chosen
          EXPECT_EQ(binary, device.number()) << file;
          EXPECT_EQ(ptx, chosen->arch) << file;
        }
      }
    }
  }
}

TEST(DeviceCodeGpu, RowsSayWhichCodeRanAndAPluginWithoutCodeIsUnsupported) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbtest::kbench({"run", "--plugins", kbtest::test_plugin_dir("faulty_cuda"),
                                   "--plugins", kbtest::test_plugin_dir("device_code"),
                                   "--plugin", "gpu_testing/none", "--plugin",
                                   "gpu_testing/wrong_arch", "--plugin", "code_testing/*",
                                   "--sizes", "1000", "--dtypes", "int32", "--max-time", "0.05"});
  std::map<std::string, kbtest::Row> by_plugin;
  for (const auto& row : run.rows) by_plugin[row.at("plugin")] = row;
  ASSERT_EQ(by_plugin.size(), 4u) << run.output;
  const ComputeCapability device = device_capability(0);
  const std::string own = "sm_" + std::to_string(device.number());
  const auto code = [&](const std::string& plugin) {
    const std::string& cell = by_plugin.at(plugin).at("code");
    return cell.substr(0, cell.find(" ("));
  };
  EXPECT_EQ(by_plugin.at("code_testing/ptx80").at("status"), "ok");
  EXPECT_EQ(code("code_testing/ptx80"), "ptx-jit compute_80");
  if (device.major == 9) {  // the machines lent: H100 and H200
    EXPECT_EQ(code("gpu_testing/none"), "sm_90");
    EXPECT_EQ(code("code_testing/sm90a"), "sm_90a");
    EXPECT_EQ(by_plugin.at("code_testing/sm90a").at("status"), "ok");
  }
  const kbtest::Row& wrong = by_plugin.at("gpu_testing/wrong_arch");
  if (device.major != 8) {  // sm_80 machine code runs on every 8.x
    EXPECT_EQ(wrong.at("status"), "unsupported");
    EXPECT_EQ(wrong.at("message"), "no code for this device (compute capability " +
                                       std::to_string(device.major) + "." +
                                       std::to_string(device.minor) + ", " + own +
                                       "): built for sm_80");
    EXPECT_EQ(wrong.at("median_us"), "");
  }
}

}  // namespace
}  // namespace kb
