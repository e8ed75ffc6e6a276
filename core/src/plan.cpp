#include "plan.hpp"

#include "families.hpp"
#include "input_error.hpp"

#include <fnmatch.h>

#include <algorithm>

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

Plan plan_sweep(const std::vector<std::shared_ptr<const LoadedPlugin>>& plugins,
                const SweepRequest& request) {
  Plan plan;
  const auto requested_ops = split_list(request.ops);
  for (const auto& plugin : plugins) {
    const KernelPlugin& api = *plugin->api;
    const FamilySweep sweep = family_sweep(api.family, request);

    std::vector<kb_dtype> dtypes = sweep.dtypes;
    if (api.dtypes == KB_DTYPE_NONE) dtypes = {KB_DTYPE_NONE};

    std::vector<std::string> ops = split_list(api.ops);
    if (ops.empty()) ops = {""};
    if (!requested_ops.empty() && ops != std::vector<std::string>{""}) {
      ops.erase(std::remove_if(ops.begin(), ops.end(),
                               [&](const auto& op) { return !listed(requested_ops, op); }),
                ops.end());
    }

    std::vector<Block> blocks = sweep.blocks;
    if (api.flags & KB_FLAG_OWN_LAUNCH_SHAPE) blocks = {Block{}};

    std::vector<int> devices = request.devices;
    if (api.device == KB_DEVICE_HOST) devices = {-1};

    for (int device : devices) {
      for (kb_dtype dtype : dtypes) {
        for (const auto& op : ops) {
          for (const auto& size : sweep.sizes) {
            PlannedCase planned{plugin, {}, ""};
            CaseRequest& r = planned.request;
            r.dtype = dtype, r.op = op, r.shape = size, r.seed = request.seed;
            r.device = device, r.verbose = request.verbose;
            if (!(api.dtypes & dtype)) {
              planned.unsupported_reason = std::string("data type ") + dtype_name(dtype) +
                                           " not supported (plugin supports " +
                                           dtype_list(api.dtypes) + ")";
              plan.cases.push_back(planned);
              continue;
            }
            std::string last_reason;
            std::size_t accepted = 0;
            for (const auto& block : blocks) {
              r.block = block;
              kb_message why{};
              const kb_case abi = r.to_abi();
              if (api.accepts == nullptr || api.accepts(&abi, &why)) {
                plan.cases.push_back(planned);
                ++accepted;
              } else {
                last_reason = why.text;
              }
            }
            if (accepted == 0) {
              r.block = blocks.size() == 1 ? blocks.front() : Block{};
              planned.unsupported_reason = "not accepted: " + last_reason;
              plan.cases.push_back(planned);
            } else {
              plan.rejected_blocks += blocks.size() - accepted;
            }
          }
        }
      }
    }
  }
  return plan;
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
