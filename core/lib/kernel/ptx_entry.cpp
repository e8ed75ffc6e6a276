#include "kernel/ptx_entry.hpp"

#include <cctype>
#include <cstdlib>

namespace kb {
namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}

// Each `.entry` directive: its name and where the text after the name starts.
template <typename Visit>
void each_entry(const std::string& ptx, Visit visit) {
  for (std::size_t at = ptx.find(".entry"); at != std::string::npos;
       at = ptx.find(".entry", at + 6)) {
    if (at > 0 && name_char(ptx[at - 1])) continue;
    std::size_t start = at + 6;
    if (start >= ptx.size() || !std::isspace(static_cast<unsigned char>(ptx[start]))) continue;
    while (start < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[start]))) ++start;
    std::size_t end = start;
    while (end < ptx.size() && name_char(ptx[end])) ++end;
    if (end > start && visit(ptx.substr(start, end - start), end)) return;
  }
}

// One `.param [.align N] .TYPE [.ptr .space .align N] name[[N]]`.
KernelParam parse_param(const std::string& text) {
  KernelParam param;
  std::size_t element = 0;
  std::size_t at = 0;
  while ((at = text.find('.', at)) != std::string::npos) {
    std::size_t end = at + 1;
    while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) ++end;
    const std::string word = text.substr(at + 1, end - at - 1);
    at = end;
    if (word.size() < 2 || element != 0) continue;
    const char kind = word[0];
    if (kind != 'u' && kind != 's' && kind != 'b' && kind != 'f') continue;
    const std::string bits = word.substr(1);
    if (bits != "8" && bits != "16" && bits != "32" && bits != "64") continue;
    element = static_cast<std::size_t>(std::atoi(bits.c_str())) / 8;
    param.kind = kind == 'f' ? 'f' : kind == 'b' ? '?' : 'i';
  }
  param.bytes = element;
  const std::size_t open = text.find('[');
  if (open != std::string::npos) {
    param.bytes = element * static_cast<std::size_t>(std::strtoull(text.c_str() + open + 1, nullptr, 10));
    param.kind = '?';
  }
  return param;
}

}  // namespace

std::vector<std::string> ptx_entries(const std::string& ptx) {
  std::vector<std::string> names;
  each_entry(ptx, [&](const std::string& name, std::size_t) {
    names.push_back(name);
    return false;
  });
  return names;
}

std::optional<std::vector<KernelParam>> ptx_entry_params(const std::string& ptx,
                                                         const std::string& name) {
  std::optional<std::vector<KernelParam>> found;
  each_entry(ptx, [&](const std::string& entry, std::size_t after) {
    if (entry != name) return false;
    found.emplace();
    std::size_t at = after;
    while (at < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[at]))) ++at;
    if (at >= ptx.size() || ptx[at] != '(') return true;  // no parameters
    const std::size_t close = ptx.find(')', at);
    const std::string list = ptx.substr(at + 1, close == std::string::npos ? std::string::npos
                                                                           : close - at - 1);
    std::size_t start = 0;
    while (start < list.size()) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      const std::string item = list.substr(start, comma - start);
      if (item.find(".param") != std::string::npos) found->push_back(parse_param(item));
      start = comma + 1;
    }
    return true;
  });
  return found;
}

}  // namespace kb
