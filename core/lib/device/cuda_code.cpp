#include "device/cuda_code.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tuple>

namespace kb {
namespace {

constexpr const char* kJitPrefix = "ptx-jit ";

// 'a' before 'f' before none: of two images for one architecture, the one built for it alone.
int specificity(char variant) { return variant == 'a' ? 2 : variant == 'f' ? 1 : 0; }

bool runs_on(const CodeImage& image, ComputeCapability device) {
  const int number = device.number();
  if (image.variant == 'a') return image.arch == number;
  const bool same_major = image.arch / 10 == device.major;
  // Machine code runs on its major version from its own minor up (and 'f' PTX, within its family);
  // plain PTX on every later architecture, the driver compiling it.
  if (image.kind == CodeImage::Kind::machine || image.variant == 'f') {
    return same_major && image.arch <= number;
  }
  return image.arch <= number;
}

// The newest of the images of one kind that run on the device, the most specific of equals.
std::optional<CodeImage> newest(const std::vector<CodeImage>& unit, CodeImage::Kind kind,
                                ComputeCapability device) {
  std::optional<CodeImage> best;
  for (const auto& image : unit) {
    if (image.kind != kind || !runs_on(image, device)) continue;
    if (!best || image.arch > best->arch ||
        (image.arch == best->arch && specificity(image.variant) > specificity(best->variant))) {
      best = image;
    }
  }
  return best;
}

bool set_in_environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::strcmp(value, "1") == 0;
}

}  // namespace

std::optional<ComputeCapability> parse_compute_capability(const std::string& text) {
  ComputeCapability cc;
  char rest = 0;
  if (std::sscanf(text.c_str(), "%d.%d%c", &cc.major, &cc.minor, &rest) != 2) return std::nullopt;
  if (cc.major < 0 || cc.minor < 0 || cc.minor > 9) return std::nullopt;
  return cc;
}

bool CodeImage::operator==(const CodeImage& other) const {
  return kind == other.kind && arch == other.arch && variant == other.variant &&
         made_by == other.made_by;
}

std::string arch_name(const CodeImage& image) {
  std::string name = image.kind == CodeImage::Kind::machine ? "sm_" : "compute_";
  name += std::to_string(image.arch);
  if (image.variant != 0) name += image.variant;
  return name;
}

std::vector<CodeImage> parse_arch_list(const std::string& cuda_archs) {
  std::vector<CodeImage> images;
  for (std::size_t start = 0; start < cuda_archs.size();) {
    const auto end = std::min(cuda_archs.find(',', start), cuda_archs.size());
    std::string item = cuda_archs.substr(start, end - start);
    start = end + 1;
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    CodeImage image;
    std::size_t digits = 0;
    if (item.rfind("sm_", 0) == 0) {
      digits = 3;
    } else if (item.rfind("compute_", 0) == 0) {
      image.kind = CodeImage::Kind::ptx;
      digits = 8;
    } else {
      continue;
    }
    std::size_t end_of_number = digits;
    while (end_of_number < item.size() &&
           std::isdigit(static_cast<unsigned char>(item[end_of_number]))) {
      ++end_of_number;
    }
    const std::string suffix = item.substr(end_of_number);
    if (end_of_number == digits || end_of_number - digits > 4 ||
        !(suffix.empty() || suffix == "a" || suffix == "f")) {
      continue;
    }
    image.arch = std::stoi(item.substr(digits, end_of_number - digits));
    image.variant = suffix.empty() ? 0 : suffix[0];
    images.push_back(image);
  }
  return images;
}

std::string arch_list_text(std::vector<CodeImage> images) {
  std::stable_sort(images.begin(), images.end(), [](const CodeImage& a, const CodeImage& b) {
    return std::make_tuple(a.kind != CodeImage::Kind::machine, a.arch, specificity(a.variant)) <
           std::make_tuple(b.kind != CodeImage::Kind::machine, b.arch, specificity(b.variant));
  });
  std::vector<std::string> names;
  for (const auto& image : images) {
    const std::string name = arch_name(image);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

JitPolicy jit_policy_from_environment() {
  return {set_in_environment("CUDA_FORCE_PTX_JIT"), set_in_environment("CUDA_DISABLE_PTX_JIT")};
}

std::optional<CodeImage> choose_image(const std::vector<CodeImage>& unit, ComputeCapability device,
                                      JitPolicy jit) {
  if (!jit.forced) {
    if (auto machine = newest(unit, CodeImage::Kind::machine, device)) return machine;
  }
  if (jit.disabled) return std::nullopt;
  return newest(unit, CodeImage::Kind::ptx, device);
}

std::string code_text(const CodeImage& chosen) {
  std::string text = (chosen.kind == CodeImage::Kind::ptx ? kJitPrefix : "") + arch_name(chosen);
  if (!chosen.made_by.empty()) text += " (" + chosen.made_by + ")";
  return text;
}

bool jit_compiled(const std::string& code) { return code.rfind(kJitPrefix, 0) == 0; }

std::string code_made_by(const std::string& code) {
  const auto open = code.find(" (");
  if (open == std::string::npos || code.back() != ')') return "";
  return code.substr(open + 2, code.size() - open - 3);
}

}  // namespace kb
