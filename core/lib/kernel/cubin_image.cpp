#include "kernel/cubin_image.hpp"

#include <cxxabi.h>

#include <algorithm>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>

namespace kb {
namespace {

// ELF64 as cubins have it: little-endian, section headers of 64 bytes.
struct Section {
  std::string name;
  std::uint32_t type = 0;
  std::uint64_t offset = 0, size = 0;
  std::uint32_t link = 0, info = 0;
};

struct Symbol {
  std::string name;
  unsigned char info = 0, other = 0;
  std::uint16_t section = 0;
  std::uint64_t value = 0;
};

constexpr std::uint32_t kSymtab = 2;
constexpr std::uint32_t kRela = 4;
constexpr std::uint32_t kNoBits = 8;
constexpr unsigned char kFunction = 2;
constexpr unsigned char kCudaEntry = 0x10;  // st_other: a __global__ function
// .nv.info attributes (EIATTR_*): the parameter table of a kernel, and register counts.
constexpr unsigned char kParamInfo = 0x17;
constexpr unsigned char kRegisterCount = 0x2f;
constexpr unsigned char kFormatSized = 0x04;

template <typename T>
bool read_at(const std::string& bytes, std::uint64_t at, T& value) {
  if (at > bytes.size() || bytes.size() - at < sizeof(T)) return false;
  std::memcpy(&value, bytes.data() + at, sizeof(T));
  return true;
}

std::string c_string(const std::string& bytes, std::uint64_t at) {
  if (at >= bytes.size()) return "";
  const auto end = bytes.find('\0', at);
  return bytes.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

class Elf {
 public:
  explicit Elf(const std::string& image) : image_(image) {
    if (image.size() < 64 || image.compare(0, 4, "\x7f" "ELF") != 0 || image[4] != 2 ||
        image[5] != 1) {
      return;
    }
    std::uint64_t table = 0;
    std::uint16_t entry_size = 0, count = 0, names = 0;
    if (!read_at(image, 0x28, table) || !read_at(image, 0x3a, entry_size) ||
        !read_at(image, 0x3c, count) || !read_at(image, 0x3e, names) || entry_size < 64) {
      return;
    }
    std::vector<std::uint32_t> name_offsets;
    for (std::uint16_t i = 0; i < count; ++i) {
      const std::uint64_t at = table + std::uint64_t{i} * entry_size;
      Section s;
      std::uint32_t name = 0;
      if (!read_at(image, at, name) || !read_at(image, at + 4, s.type) ||
          !read_at(image, at + 24, s.offset) || !read_at(image, at + 32, s.size) ||
          !read_at(image, at + 40, s.link) || !read_at(image, at + 44, s.info)) {
        return;
      }
      // A section without bytes in the file (shared memory) has a size and nothing to read.
      if (s.type == kNoBits) s.size = 0;
      if (s.offset > image.size() || image.size() - s.offset < s.size) return;
      name_offsets.push_back(name);
      sections_.push_back(s);
    }
    if (names >= sections_.size()) return;
    const std::string names_table = contents(names);
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      sections_[i].name = c_string(names_table, name_offsets[i]);
    }
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      if (sections_[i].type != kSymtab || sections_[i].link >= sections_.size()) continue;
      const std::string table_bytes = contents(i);
      const std::string strings = contents(sections_[i].link);
      for (std::uint64_t at = 0; at + 24 <= table_bytes.size(); at += 24) {
        Symbol sym;
        std::uint32_t name = 0;
        read_at(table_bytes, at, name);
        read_at(table_bytes, at + 4, sym.info);
        read_at(table_bytes, at + 5, sym.other);
        read_at(table_bytes, at + 6, sym.section);
        read_at(table_bytes, at + 8, sym.value);
        sym.name = c_string(strings, name);
        symbols_.push_back(sym);
      }
    }
    valid_ = true;
  }

  bool valid() const { return valid_; }
  const std::vector<Section>& sections() const { return sections_; }
  const std::vector<Symbol>& symbols() const { return symbols_; }
  std::string contents(std::size_t section) const {
    return image_.substr(sections_[section].offset, sections_[section].size);
  }
  const Section* find(const std::string& name) const {
    for (const auto& s : sections_) {
      if (s.name == name) return &s;
    }
    return nullptr;
  }
  std::string contents(const Section& s) const { return image_.substr(s.offset, s.size); }

 private:
  const std::string& image_;
  std::vector<Section> sections_;
  std::vector<Symbol> symbols_;
  bool valid_ = false;
};

// Each attribute of a .nv.info section: format, attribute, and its bytes (sized ones) or value.
template <typename Visit>
void each_attribute(const std::string& info, Visit visit) {
  std::uint64_t at = 0;
  while (at + 4 <= info.size()) {
    const auto format = static_cast<unsigned char>(info[at]);
    const auto attribute = static_cast<unsigned char>(info[at + 1]);
    std::uint16_t size = 0;
    read_at(info, at + 2, size);
    if (format == kFormatSized) {
      if (at + 4 + size > info.size()) return;
      visit(attribute, info.substr(at + 4, size));
      at += 4 + size;
    } else {
      at += 4;
    }
  }
}

std::string demangle(const std::string& symbol) {
  int status = 0;
  char* text = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status != 0 || text == nullptr) return symbol;
  std::string result(text);
  std::free(text);
  return result;
}

std::string without_spaces(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\n') out += c;
  }
  return out;
}

// "void ns::k<float, 32>(float const*, int)" -> "ns::k<float, 32>": the return type and the
// parameter list taken off.
std::string qualified_name(const std::string& demangled) {
  int depth = 0;
  std::size_t end = demangled.size();
  for (std::size_t i = 0; i < demangled.size(); ++i) {
    const char c = demangled[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == '(' && depth == 0) {
      end = i;
      break;
    }
  }
  std::string name = demangled.substr(0, end);
  // The return type ("void ") precedes a template's name; a space inside <...> is the arguments'.
  depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (name[i] == ' ' && depth == 0) start = i + 1;
  }
  return name.substr(start);
}

std::string base_name(const std::string& name) { return name.substr(0, name.find('<')); }

}  // namespace

std::optional<std::vector<CubinKernel>> cubin_kernels(const std::string& image) {
  const Elf elf(image);
  if (!elf.valid()) return std::nullopt;
  std::map<std::size_t, int> registers;  // symbol index -> registers
  if (const Section* info = elf.find(".nv.info")) {
    each_attribute(elf.contents(*info), [&](unsigned char attribute, const std::string& bytes) {
      std::uint32_t symbol = 0, count = 0;
      if (attribute == kRegisterCount && read_at(bytes, 0, symbol) && read_at(bytes, 4, count)) {
        registers[symbol] = static_cast<int>(count);
      }
    });
  }
  std::vector<CubinKernel> kernels;
  for (std::size_t i = 0; i < elf.symbols().size(); ++i) {
    const Symbol& sym = elf.symbols()[i];
    if ((sym.info & 0xf) != kFunction || !(sym.other & kCudaEntry)) continue;
    CubinKernel k;
    k.symbol = sym.name;
    k.demangled = demangle(sym.name);
    if (const auto it = registers.find(i); it != registers.end()) k.registers = it->second;
    if (const Section* text = elf.find(".text." + sym.name)) k.code = elf.contents(*text);
    if (const Section* info = elf.find(".nv.info." + sym.name)) {
      // KPARAM_INFO: per parameter its ordinal (u16 at 4) and, in the top 14 bits of the word
      // at 8, its size in bytes; listed last parameter first.
      std::map<std::uint16_t, std::size_t> sizes;
      each_attribute(elf.contents(*info), [&](unsigned char attribute, const std::string& bytes) {
        std::uint16_t ordinal = 0;
        std::uint32_t flags = 0;
        if (attribute == kParamInfo && read_at(bytes, 4, ordinal) && read_at(bytes, 8, flags)) {
          sizes[ordinal] = flags >> 18;
        }
      });
      k.params_known = true;
      for (std::uint16_t p = 0; p < sizes.size(); ++p) {
        const auto it = sizes.find(p);
        if (it == sizes.end()) {
          k.params_known = false;
          break;
        }
        k.params.push_back({it->second, '?'});
      }
      if (!k.params_known) k.params.clear();
    }
    kernels.push_back(std::move(k));
  }
  return kernels;
}

std::string cubin_pointee(const std::string& image, const std::string& variable) {
  const Elf elf(image);
  if (!elf.valid()) return "";
  const Symbol* pointer = nullptr;
  for (const auto& sym : elf.symbols()) {
    if (sym.name == variable) pointer = &sym;
  }
  if (pointer == nullptr) return "";
  for (std::size_t i = 0; i < elf.sections().size(); ++i) {
    const Section& rela = elf.sections()[i];
    if (rela.type != kRela || rela.info != pointer->section) continue;
    const std::string bytes = elf.contents(i);
    for (std::uint64_t at = 0; at + 24 <= bytes.size(); at += 24) {
      std::uint64_t offset = 0, info = 0;
      read_at(bytes, at, offset);
      read_at(bytes, at + 8, info);
      const std::uint64_t symbol = info >> 32;
      if (offset == pointer->value && symbol < elf.symbols().size()) {
        return elf.symbols()[symbol].name;
      }
    }
  }
  return "";
}

std::string find_cubin_kernel(const std::vector<CubinKernel>& kernels, const std::string& entry,
                              std::string& why) {
  for (const auto& k : kernels) {
    if (k.symbol == entry) return k.symbol;
  }
  const std::string wanted = without_spaces(entry);
  const bool templated = wanted.find('<') != std::string::npos;
  std::vector<const CubinKernel*> matches;
  for (const auto& k : kernels) {
    const std::string name = without_spaces(qualified_name(k.demangled));
    // Without template arguments, the name alone: a template's one instance in the code.
    if (name == wanted || (!templated && base_name(name) == wanted)) matches.push_back(&k);
  }
  if (matches.size() == 1) return matches.front()->symbol;
  std::string listed;
  const auto& shown = matches.empty() ? std::vector<const CubinKernel*>{} : matches;
  std::size_t count = 0;
  for (const auto& k : kernels) {
    if (!matches.empty() && std::find(shown.begin(), shown.end(), &k) == shown.end()) continue;
    if (++count > 8) {
      listed += ", ...";
      break;
    }
    listed += (listed.empty() ? "" : ", ") + qualified_name(k.demangled);
  }
  why = matches.empty()
            ? "no kernel '" + entry + "' in the cubin (its kernels: " +
                  (kernels.empty() ? std::string("none") : listed) + ")"
            : "'" + entry + "' names " + std::to_string(matches.size()) +
                  " kernels in the cubin (" + listed + "): give the template arguments or the "
                  "symbol";
  return "";
}

}  // namespace kb
