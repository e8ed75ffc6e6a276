#include "plan.hpp"

#include "families.hpp"
#include "input_error.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <utility>

namespace kb {
namespace {

bool listed(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

struct FamilySweep {
  std::vector<Extent> sizes;
  std::vector<Block> blocks;
  std::vector<kb_dtype> dtypes;
};

FamilySweep family_sweep(const std::string& family, const SweepRequest& request) {
  const auto defaults = family_defaults(family);
  if (request.sizes.empty() && !defaults) {
    throw InputError("family '" + family + "' has no default sizes; pass --sizes");
  }
  FamilySweep sweep;
  const auto sizes = parse_sizes(request.sizes.empty() ? defaults->sizes : request.sizes);
  const int rank = defaults ? defaults->rank : sizes.front().rank;
  for (const auto& size : sizes) sweep.sizes.push_back(broadcast(size, rank));
  sweep.blocks = parse_blocks(!request.blocks.empty() ? request.blocks
                              : defaults             ? defaults->blocks
                                                     : "256");
  const std::string dtypes = !request.dtypes.empty() ? request.dtypes
                             : defaults && std::string(defaults->dtypes) != "none"
                                 ? defaults->dtypes
                                 : "float32";
  sweep.dtypes = parse_dtypes(dtypes);
  return sweep;
}

}  // namespace

std::vector<std::shared_ptr<const LoadedPlugin>> select_plugins(
    const std::vector<std::shared_ptr<const LoadedPlugin>>& loaded,
    const std::vector<std::string>& families, const std::vector<std::string>& globs) {
  for (const auto& family : families) {
    const bool known = std::any_of(loaded.begin(), loaded.end(),
                                   [&](const auto& p) { return family == p->api->family; });
    if (!known) throw InputError("no plugin of family '" + family + "' is loaded (see kbench list)");
  }
  for (const auto& glob : globs) {
    const bool matched = std::any_of(loaded.begin(), loaded.end(), [&](const auto& p) {
      return fnmatch(glob.c_str(), p->api->name, 0) == 0;
    });
    if (!matched) throw InputError("no plugin matches '" + glob + "' (see kbench list)");
  }
  std::vector<std::shared_ptr<const LoadedPlugin>> selected;
  for (const auto& p : loaded) {
    if (!families.empty() && !listed(families, p->api->family)) continue;
    if (!globs.empty() && std::none_of(globs.begin(), globs.end(), [&](const auto& g) {
          return fnmatch(g.c_str(), p->api->name, 0) == 0;
        })) {
      continue;
    }
    selected.push_back(p);
  }
  if (selected.empty()) throw InputError("no plugin matches both the families and the globs given");
  return selected;
}

namespace {

// Plans one (plugin, device, dtype, op, size) with the blocks offered for that size: the accepted
// blocks become cases; when the plugin accepts none, one `unsupported` case says why.
void plan_size(Plan& plan, const std::shared_ptr<const LoadedPlugin>& plugin, CaseRequest request,
               const std::vector<Block>& blocks) {
  const KernelPlugin& api = *plugin->api;
  PlannedCase planned{plugin, request, ""};
  if (!(api.dtypes & request.dtype)) {
    planned.unsupported_reason = std::string("data type ") + dtype_name(request.dtype) +
                                 " not supported (plugin supports " + dtype_list(api.dtypes) + ")";
    plan.cases.push_back(planned);
    return;
  }
  std::string last_reason;
  std::size_t accepted = 0;
  for (const auto& block : blocks) {
    planned.request.block = block;
    kb_message why{};
    const kb_case abi = planned.request.to_abi();
    if (api.accepts == nullptr || api.accepts(&abi, &why)) {
      plan.cases.push_back(planned);
      ++accepted;
    } else {
      last_reason = why.text;
    }
  }
  if (accepted == 0) {
    planned.request.block = blocks.size() == 1 ? blocks.front() : Block{};
    planned.unsupported_reason = "not accepted: " + last_reason;
    plan.cases.push_back(planned);
  }
}

std::vector<int> devices_of(const KernelPlugin& api, const SweepRequest& request) {
  return api.device == KB_DEVICE_HOST ? std::vector<int>{-1} : request.devices;
}

// "transpose/fast float32 8192x4096" or "reduce/tree_unrolled int32 2^20 256 sumsq".
void plan_explicit_case(Plan& plan, const std::vector<std::shared_ptr<const LoadedPlugin>>& plugins,
                        const SweepRequest& request, const std::string& text) {
  std::vector<std::string> words;
  for (std::size_t start = 0; start < text.size();) {
    const auto begin = text.find_first_not_of(" \t", start);
    if (begin == std::string::npos) break;
    const auto end = std::min(text.find_first_of(" \t", begin), text.size());
    words.push_back(text.substr(begin, end - begin));
    start = end;
  }
  if (words.size() < 3 || words.size() > 5) {
    throw InputError("malformed case '" + text + "': expected PLUGIN DTYPE SHAPE [BLOCK [OP]]");
  }
  const auto plugin = std::find_if(plugins.begin(), plugins.end(),
                                   [&](const auto& p) { return words[0] == p->api->name; });
  if (plugin == plugins.end()) {
    throw InputError("case '" + text + "': no plugin named '" + words[0] + "' (see kbench list)");
  }
  const KernelPlugin& api = *(*plugin)->api;
  const auto defaults = family_defaults(api.family);
  const Extent shape = parse_sizes(words[2]).front();
  CaseRequest r;
  r.dtype = api.dtypes == KB_DTYPE_NONE ? KB_DTYPE_NONE : parse_dtypes(words[1]).front();
  r.shape = defaults ? broadcast(shape, defaults->rank) : shape;
  r.op = words.size() == 5 ? words[4] : split_list(api.ops).empty() ? "" : split_list(api.ops).front();
  r.seed = request.seed;
  r.verbose = request.verbose;
  Block block;
  if (!(api.flags & KB_FLAG_OWN_LAUNCH_SHAPE)) {
    if (words.size() < 4 || words[3] == "-") {
      throw InputError("case '" + text + "': " + words[0] + " needs a block shape");
    }
    block = parse_blocks(words[3]).front();
  }
  for (int device : devices_of(api, request)) {
    r.device = device;
    plan_size(plan, *plugin, r, {block});
  }
}

}  // namespace

Plan plan_sweep(const std::vector<std::shared_ptr<const LoadedPlugin>>& plugins,
                const SweepRequest& request) {
  Plan plan;
  if (!request.cases.empty()) {
    for (const auto& text : request.cases) plan_explicit_case(plan, plugins, request, text);
    return plan;
  }
  const auto requested_ops = split_list(request.ops);
  for (const auto& plugin : plugins) {
    const KernelPlugin& api = *plugin->api;
    const FamilySweep sweep = family_sweep(api.family, request);
    if (request.zip && sweep.blocks.size() != sweep.sizes.size() && sweep.blocks.size() != 1) {
      throw InputError("--zip pairs sizes with blocks: give as many blocks as sizes (" +
                       std::to_string(sweep.sizes.size()) + "), or one");
    }

    std::vector<kb_dtype> dtypes = sweep.dtypes;
    if (api.dtypes == KB_DTYPE_NONE) dtypes = {KB_DTYPE_NONE};

    std::vector<std::string> ops = split_list(api.ops);
    if (ops.empty()) ops = {""};
    if (!requested_ops.empty() && ops != std::vector<std::string>{""}) {
      ops.erase(std::remove_if(ops.begin(), ops.end(),
                               [&](const auto& op) { return !listed(requested_ops, op); }),
                ops.end());
    }

    for (int device : devices_of(api, request)) {
      for (kb_dtype dtype : dtypes) {
        for (const auto& op : ops) {
          for (std::size_t i = 0; i < sweep.sizes.size(); ++i) {
            CaseRequest r;
            r.dtype = dtype, r.op = op, r.shape = sweep.sizes[i], r.seed = request.seed;
            r.device = device, r.verbose = request.verbose;
            std::vector<Block> blocks = sweep.blocks;
            if (api.flags & KB_FLAG_OWN_LAUNCH_SHAPE) {
              blocks = {Block{}};
            } else if (request.zip) {
              blocks = {sweep.blocks[sweep.blocks.size() == 1 ? 0 : i]};
            }
            plan_size(plan, plugin, r, blocks);
          }
        }
      }
    }
  }
  return plan;
}

Plan shard(const Plan& plan, const std::string& spec) {
  const auto slash = spec.find('/');
  std::size_t index = 0, count = 0, used_index = 0, used_count = 0;
  try {
    index = std::stoul(spec.substr(0, slash), &used_index);
    count = std::stoul(spec.substr(slash + 1), &used_count);
  } catch (...) {
  }
  if (slash == std::string::npos || used_index != slash || used_count != spec.size() - slash - 1 ||
      count == 0 || index >= count) {
    throw InputError("malformed shard '" + spec + "': expected i/N with 0 <= i < N");
  }
  Plan slice;
  for (std::size_t i = index; i < plan.cases.size(); i += count) slice.cases.push_back(plan.cases[i]);
  return slice;
}

Plan repeat(const Plan& plan, int count) {
  Plan repeated;
  for (int repetition = 0; repetition < count; ++repetition) {
    for (PlannedCase c : plan.cases) {
      c.repetition = repetition;
      repeated.cases.push_back(std::move(c));
    }
  }
  return repeated;
}

std::string case_key(const std::string& plugin, const std::string& dtype, const std::string& op,
                     const std::string& shape, const std::string& block,
                     const std::string& device) {
  return plugin + "|" + dtype + "|" + op + "|" + shape + "|" + block + "|" + device;
}

std::string case_key(const PlannedCase& c) {
  return case_key(c.plugin->api->name, dtype_name(c.request.dtype), c.request.op,
                  format_extent(c.request.shape), format_block(c.request.block),
                  c.request.device < 0 ? "host" : std::to_string(c.request.device));
}

}  // namespace kb
