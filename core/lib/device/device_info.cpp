#include "device/device_info.hpp"

#include <kbench/support/error.hpp>

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdio>

namespace kb {
namespace {

std::string version_text(int v) {  // 13000 -> "13.0"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

int attribute(cudaDeviceAttr what, int device) {
  int value = 0;
  cudaDeviceGetAttribute(&value, what, device);
  return value;
}

}  // namespace

void open_device(int index, HostWait wait) {
  KB_CUDA_CHECK(cudaSetDevice(index));
  if (wait == HostWait::sleep) KB_CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
  KB_CUDA_CHECK(cudaFree(nullptr));
}

int cuda_device_count(std::string* why) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    if (why) *why = cudaGetErrorString(error);
    cudaGetLastError();
    return 0;
  }
  if (count == 0 && why) *why = "no CUDA-capable device is detected";
  return count;
}

DeviceInfo query_device(int index) {
  DeviceInfo d;
  d.index = index;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, index) != cudaSuccess) return d;
  d.name = prop.name;
  d.uuid = device_uuid(index);
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.l2_bytes = prop.l2CacheSize;
  d.mem_bus_bits = prop.memoryBusWidth;
  d.mem_clock_khz = attribute(cudaDevAttrMemoryClockRate, index);
  d.sm_clock_khz = attribute(cudaDevAttrClockRate, index);
  d.theoretical_gbps = 2.0 * d.mem_clock_khz * 1e3 * (d.mem_bus_bits / 8.0) / 1e9;
  d.peaks = peak_rates(d.cc_major, d.cc_minor, d.sm_count, d.sm_clock_khz / 1e3);
  int version = 0;
  cudaDriverGetVersion(&version);
  d.driver_version = version_text(version);
  cudaRuntimeGetVersion(&version);
  d.runtime_version = version_text(version);
  return d;
}

std::string device_uuid(int index) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, index) != cudaSuccess) return "";
  const auto* u = reinterpret_cast<const unsigned char*>(prop.uuid.bytes);
  char text[64];
  std::snprintf(text, sizeof text,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                u[14], u[15]);
  return text;
}

std::string compute_capability(const DeviceInfo& device) {
  return std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor);
}

ComputeCapability device_capability(int index) {
  ComputeCapability cc;
  if (cudaDeviceGetAttribute(&cc.major, cudaDevAttrComputeCapabilityMajor, index) != cudaSuccess ||
      cudaDeviceGetAttribute(&cc.minor, cudaDevAttrComputeCapabilityMinor, index) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  return cc;
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

}  // namespace kb
