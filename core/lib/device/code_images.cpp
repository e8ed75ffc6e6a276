#include "device/code_images.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>

namespace kb {
namespace {

// Bytes [offset, offset + size) of the file, or nothing where they lie outside it.
using ReadRange =
    std::function<std::optional<std::string>(std::uint64_t offset, std::uint64_t size)>;

template <typename T>
T little_endian(const std::string& bytes, std::size_t at) {
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    value |= static_cast<T>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  }
  return value;
}

constexpr std::uint32_t kFatbinMagic = 0xBA55ED50;
constexpr std::uint16_t kElfMachineCuda = 190;
// A fat binary entry's kind, and the flags of its header (read from nvcc 13's output: the 'a' and
// 'f' variants of sm_90a, compute_100f; zstd-compressed payloads).
constexpr std::uint16_t kEntryPtx = 1, kEntryCubin = 2;
constexpr std::uint64_t kFlagCompressed = 0x8000, kFlagArchSpecific = 0x100000,
                        kFlagFamilySpecific = 0x200000;
constexpr std::size_t kEntryHeaderBytes = 64;

// "13.0" of "Cuda compilation tools, release 13.0, V13.0.88", the toolkit note every cubin carries
// (.note.nv.tkinfo); "" where there is none.
std::string toolkit_release(const std::string& cubin) {
  static const std::string kRelease = "Cuda compilation tools, release ";
  const auto at = cubin.find(kRelease);
  if (at == std::string::npos) return "";
  const auto start = at + kRelease.size();
  auto end = start;
  while (end < cubin.size() && end - start < 8 &&
         (std::isdigit(static_cast<unsigned char>(cubin[end])) || cubin[end] == '.')) {
    ++end;
  }
  return end > start ? "cuda " + cubin.substr(start, end - start) : "";
}

// A cubin's section names hold ".text.<kernel>" for each kernel it defines; PTX text an ".entry".
bool defines_kernels(const std::string& code, CodeImage::Kind kind) {
  return code.find(kind == CodeImage::Kind::machine ? ".text." : ".entry") != std::string::npos;
}

struct ElfSection {
  std::uint64_t offset = 0, size = 0;
};

// The named section of a 64-bit little-endian ELF file, whose first 64 bytes are `header`.
std::optional<ElfSection> elf_section(const std::string& header, const ReadRange& read,
                                      const std::string& wanted) {
  const auto shoff = little_endian<std::uint64_t>(header, 0x28);
  const auto entry_size = little_endian<std::uint16_t>(header, 0x3a);
  const auto count = little_endian<std::uint16_t>(header, 0x3c);
  const auto names_index = little_endian<std::uint16_t>(header, 0x3e);
  if (entry_size < 64 || names_index >= count) return std::nullopt;
  const auto table = read(shoff, std::uint64_t{entry_size} * count);
  if (!table) return std::nullopt;
  const auto section = [&](std::size_t i) {
    const std::size_t at = i * entry_size;
    return std::pair<std::uint32_t, ElfSection>{
        little_endian<std::uint32_t>(*table, at),
        {little_endian<std::uint64_t>(*table, at + 24),
         little_endian<std::uint64_t>(*table, at + 32)}};
  };
  const ElfSection names_at = section(names_index).second;
  const auto names = read(names_at.offset, names_at.size);
  if (!names) return std::nullopt;
  for (std::size_t i = 0; i < count; ++i) {
    const auto [name, where] = section(i);
    if (name < names->size() && names->compare(name, wanted.size() + 1, wanted.c_str(),
                                               wanted.size() + 1) == 0) {
      return where;
    }
  }
  return std::nullopt;
}

// The images of one fat binary's entries, from `at` to `end`.
CodeUnit fatbin_unit(const std::string& bytes, std::size_t at, std::size_t end) {
  CodeUnit unit;
  bool kernels = true;  // until an image that can be read shows none
  while (at + kEntryHeaderBytes <= end) {
    const auto kind = little_endian<std::uint16_t>(bytes, at);
    const auto header_bytes = little_endian<std::uint32_t>(bytes, at + 4);
    const auto payload_bytes = little_endian<std::uint64_t>(bytes, at + 8);
    if (header_bytes < kEntryHeaderBytes || header_bytes > end - at ||
        payload_bytes > end - at - header_bytes) {
      break;
    }
    const auto flags = little_endian<std::uint64_t>(bytes, at + 40);
    CodeImage image;
    image.arch = static_cast<int>(little_endian<std::uint32_t>(bytes, at + 28));
    image.variant = (flags & kFlagArchSpecific) ? 'a' : (flags & kFlagFamilySpecific) ? 'f' : 0;
    const std::string payload = bytes.substr(at + header_bytes, payload_bytes);
    if (kind == kEntryPtx) {
      image.kind = CodeImage::Kind::ptx;
      // The PTX ISA version the compiler wrote, in the entry's header (the text may be compressed).
      const auto minor = little_endian<std::uint16_t>(bytes, at + 24);
      const auto major = little_endian<std::uint16_t>(bytes, at + 26);
      image.made_by = "ptx " + std::to_string(major) + "." + std::to_string(minor);
    } else if (kind == kEntryCubin && !(flags & kFlagCompressed)) {
      image.made_by = toolkit_release(payload);
    }
    if (!(flags & kFlagCompressed)) kernels = kernels && defines_kernels(payload, image.kind);
    if ((kind == kEntryPtx || kind == kEntryCubin) && image.arch > 0 && image.arch < 10000) {
      unit.push_back(image);
    }
    at += header_bytes + payload_bytes;
  }
  if (!kernels) unit.clear();
  return unit;
}

// Where each fat binary in `bytes` begins and ends (a section may pad between them).
std::vector<std::pair<std::size_t, std::size_t>> fatbin_ranges(const std::string& bytes) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  std::size_t at = 0;
  while (at + 16 <= bytes.size()) {
    if (little_endian<std::uint32_t>(bytes, at) != kFatbinMagic) {
      at += 8;
      continue;
    }
    const auto header_bytes = little_endian<std::uint16_t>(bytes, at + 6);
    const auto entries_bytes = little_endian<std::uint64_t>(bytes, at + 8);
    if (header_bytes < 16 || entries_bytes > bytes.size() - at - header_bytes) break;
    const std::size_t end = at + header_bytes + entries_bytes;
    ranges.emplace_back(at, end);
    at = (end + 7) / 8 * 8;
  }
  return ranges;
}

std::vector<CodeUnit> fatbin_units(const std::string& bytes) {
  std::vector<CodeUnit> units;
  for (const auto& [begin, end] : fatbin_ranges(bytes)) {
    const auto header_bytes = little_endian<std::uint16_t>(bytes, begin + 6);
    CodeUnit unit = fatbin_unit(bytes, begin + header_bytes, end);
    if (!unit.empty()) units.push_back(std::move(unit));
  }
  return units;
}

// A cubin file: its architecture in the ELF flags (from ELF ABI version 8 in bits 8-15, before it
// in bits 0-7), its variant in the options its toolkit note records ("-arch sm_90a").
CodeUnit cubin_unit(const std::string& bytes) {
  CodeImage image;
  const auto flags = little_endian<std::uint32_t>(bytes, 48);
  const int abi_version = static_cast<unsigned char>(bytes[8]);
  image.arch = static_cast<int>(abi_version >= 8 ? (flags >> 8) & 0xff : flags & 0xff);
  const std::string option = "-arch sm_" + std::to_string(image.arch);
  const auto at = bytes.find(option);
  if (at != std::string::npos && at + option.size() < bytes.size()) {
    const char suffix = bytes[at + option.size()];
    if (suffix == 'a' || suffix == 'f') image.variant = suffix;
  }
  image.made_by = toolkit_release(bytes);
  if (image.arch == 0) return {};
  return {image};
}

// PTX text: its `.target sm_XX` is the virtual architecture, its `.version` the ISA's.
CodeUnit ptx_unit(const std::string& text) {
  const auto target = text.find(".target");
  if (target == std::string::npos) return {};
  const auto first = text.find_first_not_of(" \t", target + 7);
  if (first == std::string::npos) return {};
  const auto last = text.find_first_of(" \t\r\n,", first);
  std::string name = text.substr(first, last - first);
  if (name.rfind("sm_", 0) != 0) return {};
  auto images = parse_arch_list("compute_" + name.substr(3));
  if (images.empty()) return {};
  if (const auto version = text.find(".version"); version != std::string::npos) {
    const auto start = text.find_first_not_of(" \t", version + 8);
    const auto end =
        start == std::string::npos ? start : text.find_first_not_of("0123456789.", start);
    if (start != std::string::npos && end != start) {
      images.front().made_by = "ptx " + text.substr(start, end - start);
    }
  }
  return {images.front()};
}

bool is_elf64_little_endian(const std::string& header) {
  return header.size() >= 64 && header.compare(0, 4, "\x7f" "ELF") == 0 && header[4] == 2 &&
         header[5] == 1;
}

bool is_cubin(const std::string& elf_header) {
  return little_endian<std::uint16_t>(elf_header, 18) == kElfMachineCuda;
}

// The bytes of a host library's .nv_fatbin section; nothing when it has none.
std::optional<std::string> fatbin_section(const std::string& header, const ReadRange& read) {
  const auto section = elf_section(header, read, ".nv_fatbin");
  if (!section) return std::nullopt;
  return read(section->offset, section->size);
}

// Reads a host library's section, the file at `path` read only where needed.
std::optional<std::string> fatbin_section_of_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return std::nullopt;
  const auto file_size = static_cast<std::uint64_t>(in.tellg());
  const ReadRange read = [&](std::uint64_t offset,
                             std::uint64_t size) -> std::optional<std::string> {
    if (offset > file_size || size > file_size - offset) return std::nullopt;
    std::string bytes(size, '\0');
    in.seekg(static_cast<std::streamoff>(offset));
    if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) return std::nullopt;
    return bytes;
  };
  const auto header = read(0, 64);
  if (!header || !is_elf64_little_endian(*header) || is_cubin(*header)) return std::nullopt;
  return fatbin_section(*header, read);
}

}  // namespace

std::vector<CodeUnit> read_code_units(const std::string& bytes) {
  if (bytes.size() >= 16 && little_endian<std::uint32_t>(bytes, 0) == kFatbinMagic) {
    return fatbin_units(bytes);
  }
  CodeUnit unit;
  if (is_elf64_little_endian(bytes)) {
    if (is_cubin(bytes)) unit = cubin_unit(bytes);
  } else {
    unit = ptx_unit(bytes);
  }
  return unit.empty() ? std::vector<CodeUnit>{} : std::vector<CodeUnit>{unit};
}

std::vector<CodeUnit> read_code_units_of_file(const std::string& path) {
  const auto section = fatbin_section_of_file(path);
  return section ? fatbin_units(*section) : std::vector<CodeUnit>{};
}

std::vector<std::string> read_fatbins_of_file(const std::string& path) {
  std::vector<std::string> fatbins;
  if (const auto section = fatbin_section_of_file(path)) {
    for (const auto& [begin, end] : fatbin_ranges(*section)) {
      fatbins.push_back(section->substr(begin, end - begin));
    }
  }
  return fatbins;
}

}  // namespace kb
