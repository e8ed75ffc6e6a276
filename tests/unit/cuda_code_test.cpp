// Which code a device runs: the driver's choice on synthetic devices, the code read from libraries
// and kernel files the build made (each test plugin built for other architectures), and a `code`
// cell as rows name it.
#include "device/code_images.hpp"
#include "device/cuda_code.hpp"
#include "support/kbench_process.hpp"
#include "util/whole_file.hpp"

#include <gtest/gtest.h>

namespace kb {
namespace {

constexpr ComputeCapability kA100{8, 0}, kA10{8, 6}, kL40S{8, 9}, kH100{9, 0}, kB200{10, 0},
    kB300{10, 3}, kRtx50{12, 0}, kThor{11, 0};

std::string chosen(const std::vector<CodeImage>& unit, ComputeCapability device,
                   JitPolicy jit = {}) {
  const auto image = choose_image(unit, device, jit);
  return image ? code_text(*image) : "none";
}

TEST(ChooseImage, MachineCodeOfTheDevicesOwnArchitectureFirst) {
  const auto unit = parse_arch_list("sm_80,sm_86,sm_90,sm_100,sm_120,compute_120");
  EXPECT_EQ(chosen(unit, kA100), "sm_80");
  EXPECT_EQ(chosen(unit, kA10), "sm_86");
  EXPECT_EQ(chosen(unit, kH100), "sm_90");
  EXPECT_EQ(chosen(unit, kB200), "sm_100");
  EXPECT_EQ(chosen(unit, kRtx50), "sm_120");
}

TEST(ChooseImage, MachineCodeRunsOnLaterMinorVersionsOfItsMajorOnly) {
  const auto unit = parse_arch_list("sm_80,sm_100");
  EXPECT_EQ(chosen(unit, kL40S), "sm_80");   // 8.9 runs sm_80
  EXPECT_EQ(chosen(unit, kB300), "sm_100");  // 10.3 runs sm_100
  EXPECT_EQ(chosen(unit, kH100), "none");    // no sm_9x, no PTX
  EXPECT_EQ(chosen(parse_arch_list("sm_86"), kA100), "none");  // not downwards
}

TEST(ChooseImage, ArchSpecificCodeRunsOnItsOwnComputeCapabilityAlone) {
  EXPECT_EQ(chosen(parse_arch_list("sm_90a"), kH100), "sm_90a");
  EXPECT_EQ(chosen(parse_arch_list("sm_90a"), kB200), "none");
  EXPECT_EQ(chosen(parse_arch_list("sm_100a"), kB300), "none");
  EXPECT_EQ(chosen(parse_arch_list("compute_90a"), kB200), "none");
  // Family-specific code runs within its major version.
  EXPECT_EQ(chosen(parse_arch_list("sm_100f"), kB300), "sm_100f");
  EXPECT_EQ(chosen(parse_arch_list("sm_100f"), kRtx50), "none");
  // Of two cubins for one architecture, the one built for it alone.
  EXPECT_EQ(chosen(parse_arch_list("sm_90,sm_90a"), kH100), "sm_90a");
}

TEST(ChooseImage, PtxOnlyWhereNoMachineCodeRunsAndNeverNewerThanTheDevice) {
  const auto unit = parse_arch_list("sm_90,compute_90");
  EXPECT_EQ(chosen(unit, kH100), "sm_90");
  EXPECT_EQ(chosen(unit, kB200), "ptx-jit compute_90");
  EXPECT_EQ(chosen(unit, kRtx50), "ptx-jit compute_90");
  EXPECT_EQ(chosen(unit, kA100), "none");  // compute_90 cannot become sm_80 code
  // The newest PTX not newer than the device.
  const auto ptx = parse_arch_list("compute_80,compute_100,compute_120");
  EXPECT_EQ(chosen(ptx, kH100), "ptx-jit compute_80");
  EXPECT_EQ(chosen(ptx, kB300), "ptx-jit compute_100");
  EXPECT_EQ(chosen(ptx, kThor), "ptx-jit compute_100");
  EXPECT_EQ(chosen(ptx, kRtx50), "ptx-jit compute_120");
}

TEST(ChooseImage, TheDriversEnvironmentForcesOrForbidsTheJit) {
  const auto unit = parse_arch_list("sm_90,compute_80");
  EXPECT_EQ(chosen(unit, kH100, {/*forced=*/true, false}), "ptx-jit compute_80");
  EXPECT_EQ(chosen(parse_arch_list("sm_90"), kH100, {true, false}), "none");
  EXPECT_EQ(chosen(parse_arch_list("compute_80"), kH100, {false, /*disabled=*/true}), "none");
}

TEST(CodeText, NamesWhatRanAndWhoMadeIt) {
  CodeImage native{CodeImage::Kind::machine, 90, 'a', "cuda 13.0"};
  EXPECT_EQ(code_text(native), "sm_90a (cuda 13.0)");
  CodeImage ptx{CodeImage::Kind::ptx, 80, 0, "ptx 9.0"};
  EXPECT_EQ(code_text(ptx), "ptx-jit compute_80 (ptx 9.0)");
  EXPECT_TRUE(jit_compiled(code_text(ptx)));
  EXPECT_FALSE(jit_compiled(code_text(native)));
  EXPECT_FALSE(jit_compiled(""));
  EXPECT_EQ(code_made_by(code_text(native)), "cuda 13.0");
  EXPECT_EQ(code_made_by("sm_90"), "");
}

TEST(ArchList, ReadsADescriptorsListAndSkipsWhatIsNoArchitecture) {
  EXPECT_EQ(arch_list_text(parse_arch_list("sm_90, compute_90,sm_90,nvrtc at run time,sm_,sm_9x")),
            "sm_90, compute_90");
  EXPECT_EQ(parse_arch_list("sm_100f").front().variant, 'f');
  EXPECT_TRUE(parse_arch_list("").empty());
  EXPECT_EQ(parse_compute_capability("10.3")->number(), 103);
  EXPECT_FALSE(parse_compute_capability("9"));
  EXPECT_FALSE(parse_compute_capability("9.0x"));
}

std::string plugin_file(const std::string& folder, const std::string& stem) {
  return kbtest::test_plugin_dir(folder) + "/" + stem + ".so";
}

std::string all_images(const std::vector<CodeUnit>& units) {
  std::string text;
  for (const auto& unit : units) {
    text += "[";
    for (const auto& image : unit) text += (text.back() == '[' ? "" : " ") + arch_name(image);
    text += "]";
  }
  return text;
}

TEST(CodeImages, ReadFromTheLibrariesTheBuildMade) {
  // The default build: sm_90 machine code and compute_90 PTX, made by this toolkit.
  const auto native = read_code_units_of_file(plugin_file("faulty_cuda", "kbt_cuda_none"));
  ASSERT_EQ(native.size(), 1u) << all_images(native);
  EXPECT_EQ(chosen(native.front(), kH100).rfind("sm_90 (cuda ", 0), 0u);
  EXPECT_EQ(chosen(native.front(), kB200).rfind("ptx-jit compute_90 (ptx ", 0), 0u);
  EXPECT_EQ(all_images(read_code_units_of_file(plugin_file("faulty_cuda", "kbt_cuda_wrong_arch"))),
            "[sm_80]");
  EXPECT_EQ(all_images(read_code_units_of_file(plugin_file("device_code", "kbt_code_ptx80"))),
            "[compute_80]");
  EXPECT_EQ(all_images(read_code_units_of_file(plugin_file("device_code", "kbt_code_sm90a"))),
            "[sm_90a]");
  // transpose/copy calls cudaMemcpy alone: its translation unit defines no kernel, and no code of
  // it decides where it runs.
  const std::string exe = KBENCH_EXE;
  const std::string in_tree = exe.substr(0, exe.rfind('/')) + "/../lib/kbench/plugins/";
  EXPECT_TRUE(read_code_units_of_file(in_tree + "transpose_copy.so").empty());
  EXPECT_EQ(read_code_units_of_file(in_tree + "transpose_fast.so").size(), 1u);
  // A host plugin, a file that is no library, one that is not there: no code.
  EXPECT_TRUE(read_code_units_of_file(plugin_file("loader", "kbt_good")).empty());
  EXPECT_TRUE(read_code_units_of_file(plugin_file("loader", "not_a_library")).empty());
  EXPECT_TRUE(read_code_units_of_file("/nonexistent/plugin.so").empty());
  EXPECT_EQ(read_fatbins_of_file(plugin_file("faulty_cuda", "kbt_cuda_none")).size(), 1u);
}

TEST(CodeImages, ReadFromKernelFilesAsNvccWroteThem) {
  const std::string dir = KBT_EXAMPLE_KERNELS;
  const auto read = [&](const std::string& name) {
    return read_code_units(read_whole_file(dir + "/" + name).value_or(""));
  };
  // The example kernels are built for the build's first architecture (sm_90 by default).
  EXPECT_EQ(all_images(read("transpose_tile.ptx")), "[compute_90]");
  EXPECT_EQ(all_images(read("transpose_tile.cubin")), "[sm_90]");
  EXPECT_EQ(all_images(read("transpose_tile.fatbin")), "[sm_90 compute_90]");
  EXPECT_EQ(read("transpose_tile.ptx").front().front().made_by.rfind("ptx ", 0), 0u);
  EXPECT_EQ(read("transpose_tile.cubin").front().front().made_by.rfind("cuda ", 0), 0u);
}

TEST(CodeImages, CutAndGarbledFilesHoldNoCodeAndNeverCrashTheReader) {
  const std::string fatbin =
      read_whole_file(std::string(KBT_EXAMPLE_KERNELS) + "/transpose_tile.fatbin").value_or("");
  ASSERT_GT(fatbin.size(), 200u);
  for (std::size_t cut = 0; cut < fatbin.size(); cut += 7) {
    for (const auto& unit : read_code_units(fatbin.substr(0, cut))) EXPECT_LE(unit.size(), 2u);
  }
  std::string garbled = fatbin;
  for (std::size_t i = 8; i < 40; ++i) garbled[i] = '\xff';  // sizes past the end
  EXPECT_TRUE(read_code_units(garbled).empty());
  EXPECT_TRUE(read_code_units(std::string("\x7f" "ELF", 4)).empty());
  EXPECT_TRUE(read_code_units(".version 9.0\n.target compute_80\n").empty());
}

}  // namespace
}  // namespace kb
