#include "plan/plan.hpp"

#include "plugin/params.hpp"
#include "util/input_error.hpp"

#include <kbench/support/random.hpp>

#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <set>
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

FamilySweep family_sweep(const std::string& family, const SweepRequest& request,
                         const FamilyTable& families) {
  const FamilyInfo* described = families.find(family);
  if (request.sizes.empty() && described == nullptr) {
    throw InputError("family '" + family + "' has no default sizes (no plugin of it describes "
                     "the family); pass --sizes");
  }
  FamilySweep sweep;
  const auto sizes = parse_sizes(request.sizes.empty() ? described->default_sizes : request.sizes);
  const int rank = described ? described->rank : sizes.front().rank;
  for (const auto& size : sizes) sweep.sizes.push_back(broadcast(size, rank));
  // A family of plugins that all choose their own launch shape needs no blocks.
  const std::string blocks = !request.blocks.empty() ? request.blocks
                             : described && !described->default_blocks.empty()
                                 ? described->default_blocks
                                 : "256";
  sweep.blocks = parse_blocks(blocks);
  const std::string dtypes = !request.dtypes.empty() ? request.dtypes
                             : described && described->default_dtypes != "none"
                                 ? described->default_dtypes
                                 : "float32";
  sweep.dtypes = parse_dtypes(dtypes);
  return sweep;
}

}  // namespace

std::vector<std::shared_ptr<const PluginInfo>> select_plugins(
    const std::vector<std::shared_ptr<const PluginInfo>>& loaded,
    const std::vector<std::string>& families, const std::vector<std::string>& globs) {
  for (const auto& family : families) {
    const bool known = std::any_of(loaded.begin(), loaded.end(),
                                   [&](const auto& p) { return family == p->family; });
    if (!known) throw InputError("no plugin of family '" + family + "' is loaded (see kbench list)");
  }
  for (const auto& glob : globs) {
    const bool matched = std::any_of(loaded.begin(), loaded.end(), [&](const auto& p) {
      return fnmatch(glob.c_str(), p->name.c_str(), 0) == 0;
    });
    if (!matched) throw InputError("no plugin matches '" + glob + "' (see kbench list)");
  }
  std::vector<std::shared_ptr<const PluginInfo>> selected;
  for (const auto& p : loaded) {
    if (!families.empty() && !listed(families, p->family)) continue;
    if (!globs.empty() && std::none_of(globs.begin(), globs.end(), [&](const auto& g) {
          return fnmatch(g.c_str(), p->name.c_str(), 0) == 0;
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
// blocks become cases; when the plugin accepts none, one `unsupported` case says why. A crash or
// hang of its accepts() becomes the outcome of each case it was asked about.
void plan_size(Plan& plan, const std::shared_ptr<const PluginInfo>& plugin, CaseRequest request,
               const std::vector<Block>& blocks, PluginProbe& probe, DeviceCode& device_code) {
  PlannedCase planned;
  planned.plugin = plugin;
  planned.request = request;
  if (!(plugin->dtypes & request.dtype)) {
    planned.outcome = CaseOutcome::without_run(
        CaseStatus::unsupported, std::string("data type ") + dtype_name(request.dtype) +
                                     " not supported (plugin supports " +
                                     dtype_list(plugin->dtypes) + ")");
    plan.cases.push_back(planned);
    return;
  }
  const auto& referee = plugin->refereed_by_family() ? plugin->referee : nullptr;
  // Code for the device, the strategy's and its referee's, then the referee: a case its family
  // cannot judge is not run at all.
  const PartCode code = device_code.of(*plugin, request.device);
  planned.code = code.code;
  std::string refusal = code.refusal;
  if (refusal.empty() && referee) {
    if (const PartCode family = device_code.of(*referee, request.device); !family.refusal.empty()) {
      refusal = "the " + referee->name + " family's library has " + family.refusal;
    } else if (!(referee->dtypes & request.dtype)) {
      refusal = std::string("the ") + referee->name + " family defines no " +
                dtype_name(request.dtype) + " (it defines " + dtype_list(referee->dtypes) + ")";
    } else if (!request.op.empty() && !listed(split_list(referee->ops), request.op)) {
      refusal = "the " + referee->name + " family has no operation '" + request.op + "'";
    }
  }
  if (!refusal.empty()) {
    planned.outcome = CaseOutcome::without_run(CaseStatus::unsupported, refusal);
    if (blocks.size() == 1) planned.request.block = blocks.front();
    plan.cases.push_back(planned);
    return;
  }
  std::string last_reason;
  std::size_t accepted = 0;
  for (const auto& block : blocks) {
    planned.request.block = block;
    Acceptance verdict;
    if (referee) {
      verdict = probe.accepts(*referee, planned.request);
      if (!verdict.accepted && !verdict.fault) {
        verdict.reason = "the " + referee->name + " family: " + verdict.reason;
      }
    }
    if (!referee || (verdict.accepted && !verdict.fault)) {
      verdict = probe.accepts(*plugin, planned.request);
    }
    if (verdict.accepted || verdict.fault) {
      planned.outcome = verdict.fault;
      plan.cases.push_back(planned);
      ++accepted;
    } else {
      last_reason = verdict.reason;
    }
  }
  if (accepted == 0) {
    planned.request.block = blocks.size() == 1 ? blocks.front() : Block{};
    planned.outcome =
        CaseOutcome::without_run(CaseStatus::unsupported, "not accepted: " + last_reason);
    plan.cases.push_back(planned);
  }
}

// The operation to run: the one named, which the plugin must offer, or the plugin's first.
std::string operation_of(const PluginInfo& plugin, const std::string& named, const std::string& text) {
  const auto offered = split_list(plugin.ops);
  if (named.empty()) return offered.empty() ? "" : offered.front();
  if (!listed(offered, named)) {
    throw InputError("case '" + text + "': " + plugin.name + " has no operation '" + named + "'" +
                     (offered.empty() ? "" : " (it offers " + plugin.ops + ")"));
  }
  return named;
}

// "transpose/fast float32 8192x4096" or "reduce/tree_unrolled int32 2^20 256 sumsq".
void plan_explicit_case(Plan& plan, const std::vector<std::shared_ptr<const PluginInfo>>& plugins,
                        const SweepRequest& request, const std::string& text,
                        const FamilyTable& families, PluginProbe& probe, DeviceCode& device_code) {
  std::vector<std::string> words;
  for (std::size_t start = 0; start < text.size();) {
    const auto begin = text.find_first_not_of(" \t", start);
    if (begin == std::string::npos) break;
    const auto end = std::min(text.find_first_of(" \t", begin), text.size());
    words.push_back(text.substr(begin, end - begin));
    start = end;
  }
  // Parameters are the words with '=': "tile=256;vec=4" or "tile=256 vec=4".
  std::vector<std::string> param_words;
  words.erase(std::remove_if(words.begin(), words.end(),
                             [&](const std::string& w) {
                               if (w.find('=') == std::string::npos) return false;
                               for (std::size_t at = 0; at <= w.size();) {
                                 const auto end = std::min(w.find(';', at), w.size());
                                 param_words.push_back(w.substr(at, end - at));
                                 at = end + 1;
                               }
                               return true;
                             }),
              words.end());
  if (words.size() < 3 || words.size() > 5) {
    throw InputError("malformed case '" + text +
                     "': expected PLUGIN DTYPE SHAPE [BLOCK [OP]] [NAME=VALUE...]");
  }
  const auto plugin = std::find_if(plugins.begin(), plugins.end(),
                                   [&](const auto& p) { return words[0] == p->name; });
  if (plugin == plugins.end()) {
    throw InputError("case '" + text + "': no plugin named '" + words[0] + "' (see kbench list)");
  }
  const PluginInfo& info = **plugin;
  const FamilyInfo* described = families.find(info.family);
  const Extent shape = parse_sizes(words[2]).front();
  CaseRequest r;
  r.dtype = info.dtypes == KB_DTYPE_NONE ? KB_DTYPE_NONE : parse_dtypes(words[1]).front();
  r.shape = described ? broadcast(shape, described->rank) : shape;
  r.op = operation_of(info, words.size() == 5 ? words[4] : "", text);
  r.seed = request.seed;
  r.verbose = request.verbose;
  // Each parameter as the case names it, else its first declared value.
  std::map<std::string, std::vector<std::string>> asked;
  for (auto& [name, values] : parse_param_options(param_words)) {
    if (std::none_of(info.params.begin(), info.params.end(),
                     [&](const ParamInfo& p) { return p.name == name; })) {
      throw InputError("case '" + text + "': " + info.name + " has no parameter '" + name + "'");
    }
    if (values.size() != 1) throw InputError("case '" + text + "': one value of " + name);
    asked[name] = values;
  }
  for (const ParamInfo& p : info.params) {
    if (!asked.count(p.name)) asked[p.name] = {p.values.front()};
  }
  r.params = format_params(param_combinations(info, asked).front());
  Block block;
  if (!(info.flags & KB_FLAG_OWN_LAUNCH_SHAPE)) {
    if (words.size() < 4 || words[3] == "-") {
      throw InputError("case '" + text + "': " + words[0] + " needs a block shape");
    }
    block = parse_blocks(words[3]).front();
  } else if (words.size() >= 4 && words[3] != "-") {
    // Its case would run with the plugin's own block under this one's name, or none.
    throw InputError("case '" + text + "': " + words[0] + " chooses its own launch shape; give "
                     "no block (or '-' before an operation)");
  }
  for (int device : devices_of(info, request)) {
    r.device = device;
    plan_size(plan, *plugin, r, {block}, probe, device_code);
  }
}

// The operations the request names, each offered by at least one of the plugins.
std::vector<std::string> requested_operations(
    const std::vector<std::shared_ptr<const PluginInfo>>& plugins, const std::string& ops) {
  if (ops.empty()) return {};
  const auto requested = split_user_list(ops, "operation");
  for (const auto& op : requested) {
    if (std::none_of(plugins.begin(), plugins.end(),
                     [&](const auto& p) { return listed(split_list(p->ops), op); })) {
      throw InputError("unknown operation '" + op + "': no plugin selected offers it");
    }
    if (std::count(requested.begin(), requested.end(), op) > 1) {
      throw InputError("operation '" + op + "' given twice in '" + ops + "'");
    }
  }
  return requested;
}

// Each case once: a value repeated in another spelling (1024 and 1024x1024 for a square family)
// or a --case given twice would run a case twice and write two rows for it.
void refuse_duplicates(const Plan& plan) {
  std::set<std::string> seen;
  for (const auto& c : plan.cases) {
    if (!seen.insert(describe_case(c)).second) {
      throw InputError("the case '" + describe_case(c) + "' is asked for twice (a value repeated "
                       "in --sizes or --blocks, in two spellings, or a --case given twice)");
    }
  }
}

}  // namespace

std::vector<std::string> check_param_request(
    const std::vector<std::shared_ptr<const PluginInfo>>& plugins,
    const std::map<std::string, std::vector<std::string>>& asked) {
  std::vector<std::string> notes;
  for (const auto& [name, values] : asked) {
    std::string without;
    for (const auto& plugin : plugins) {
      if (std::none_of(plugin->params.begin(), plugin->params.end(),
                       [&](const ParamInfo& p) { return p.name == name; })) {
        without += (without.empty() ? "" : ", ") + plugin->name;
      }
    }
    if (without.size() > 0 && std::none_of(plugins.begin(), plugins.end(), [&](const auto& p) {
          return std::any_of(p->params.begin(), p->params.end(),
                             [&](const ParamInfo& param) { return param.name == name; });
        })) {
      throw InputError("--param " + name + ": no plugin selected has a parameter '" + name +
                       "' (see kbench list)");
    }
    if (!without.empty()) notes.push_back("--param " + name + " does not apply to " + without);
  }
  for (const auto& plugin : plugins) param_combinations(*plugin, asked);  // values among choices
  return notes;
}

void check_blocks_request(const std::vector<std::shared_ptr<const PluginInfo>>& plugins,
                          const std::string& blocks) {
  if (blocks.empty() || plugins.empty()) return;
  if (std::all_of(plugins.begin(), plugins.end(),
                  [](const auto& p) { return (p->flags & KB_FLAG_OWN_LAUNCH_SHAPE) != 0; })) {
    throw InputError("--blocks " + blocks + ": no plugin selected takes a block (each chooses " +
                     "its own launch shape)");
  }
}

Plan plan_sweep(const std::vector<std::shared_ptr<const PluginInfo>>& plugins,
                const SweepRequest& request, const FamilyTable& families, PluginProbe& probe) {
  Plan plan;
  DeviceCode device_code(request.capabilities);
  if (!request.cases.empty()) {
    for (const auto& text : request.cases) {
      plan_explicit_case(plan, plugins, request, text, families, probe, device_code);
    }
    refuse_duplicates(plan);
    return plan;
  }
  const auto requested_ops = requested_operations(plugins, request.ops);
  const auto asked = parse_param_options(request.params);
  for (auto& note : check_param_request(plugins, asked)) plan.notes.push_back(std::move(note));
  std::size_t swept = 0;  // plugins with sizes to sweep
  for (const auto& plugin : plugins) {
    const PluginInfo& info = *plugin;
    // A plugin of a family no plugin describes has no default sizes: in a default sweep it is
    // skipped with a note, not the reason to refuse every other plugin's; a sweep of that family
    // alone (or of that plugin alone) is refused below, naming it.
    if (request.sizes.empty() && families.find(info.family) == nullptr &&
        !listed(request.families, info.family)) {
      plan.notes.push_back("skipped " + info.name + ": no plugin describes its family '" +
                           info.family + "', which so has no default sizes; run it with --sizes");
      continue;
    }
    ++swept;
    const FamilySweep sweep = family_sweep(info.family, request, families);
    if (request.zip && sweep.blocks.size() != sweep.sizes.size() && sweep.blocks.size() != 1) {
      throw InputError("--zip pairs sizes with blocks: give as many blocks as sizes (" +
                       std::to_string(sweep.sizes.size()) + "), or one");
    }

    std::vector<kb_dtype> dtypes = sweep.dtypes;
    if (info.dtypes == KB_DTYPE_NONE) dtypes = {KB_DTYPE_NONE};

    std::vector<std::string> ops = split_list(info.ops);
    if (ops.empty()) ops = {""};
    if (!requested_ops.empty() && ops != std::vector<std::string>{""}) {
      ops.erase(std::remove_if(ops.begin(), ops.end(),
                               [&](const auto& op) { return !listed(requested_ops, op); }),
                ops.end());
    }

    // A tune searches every value a parameter may take, a sweep only its declared defaults.
    auto values = asked;
    if (request.every_choice) {
      for (const ParamInfo& param : info.params) {
        if (!param.choices.empty()) values.emplace(param.name, param.choices);
      }
    }
    const auto combinations = param_combinations(info, values);
    for (int device : devices_of(info, request)) {
      for (kb_dtype dtype : dtypes) {
        for (const auto& op : ops) {
          for (std::size_t i = 0; i < sweep.sizes.size(); ++i) {
            for (const auto& params : combinations) {
              CaseRequest r;
              r.dtype = dtype, r.op = op, r.shape = sweep.sizes[i], r.seed = request.seed;
              r.device = device, r.verbose = request.verbose, r.params = format_params(params);
              std::vector<Block> blocks = sweep.blocks;
              if (info.flags & KB_FLAG_OWN_LAUNCH_SHAPE) {
                blocks = {Block{}};
              } else if (request.zip) {
                blocks = {sweep.blocks[sweep.blocks.size() == 1 ? 0 : i]};
              }
              plan_size(plan, plugin, r, blocks, probe, device_code);
            }
          }
        }
      }
    }
  }
  if (swept == 0) {
    std::set<std::string> undescribed;
    for (const auto& plugin : plugins) undescribed.insert(plugin->family);
    std::string names;
    for (const auto& family : undescribed) names += (names.empty() ? "'" : ", '") + family + "'";
    throw InputError("the plugins selected have no default sizes (no plugin describes " + names +
                     "); pass --sizes");
  }
  refuse_duplicates(plan);
  return plan;
}

void plan_case(Plan& plan, const std::shared_ptr<const PluginInfo>& plugin,
               const CaseRequest& request, PluginProbe& probe,
               const DeviceCapabilities& capabilities) {
  DeviceCode device_code(capabilities);
  plan_size(plan, plugin, request, {request.block}, probe, device_code);
}

std::vector<int> devices_of(const PluginInfo& plugin, const SweepRequest& request) {
  return plugin.device == KB_DEVICE_HOST ? std::vector<int>{-1} : request.devices;
}

namespace {

std::pair<std::uint64_t, std::uint64_t> shard_numbers(const std::string& spec) {
  const auto slash = spec.find('/');
  const auto index = parse_unsigned(spec.substr(0, slash));
  const auto count = slash == std::string::npos ? std::nullopt : parse_unsigned(spec.substr(slash + 1));
  if (!index || !count || *count == 0 || *index >= *count) {
    throw InputError("malformed shard '" + spec + "': expected i/N with 0 <= i < N");
  }
  return {*index, *count};
}

}  // namespace

std::string shard_name(const std::string& spec) {
  const auto [index, count] = shard_numbers(spec);
  return std::to_string(index) + "/" + std::to_string(count);
}

Plan shard(const Plan& plan, const std::string& spec) {
  const auto [index, count] = shard_numbers(spec);
  Plan slice;
  // Stepping by `count` from `index` may pass the end: compare before adding.
  for (std::uint64_t i = index; i < plan.cases.size(); i += count) {
    slice.cases.push_back(plan.cases[i]);
    if (count > plan.cases.size() - i) break;
  }
  return slice;
}

Plan with_hidden_shapes(const Plan& plan, std::uint64_t secret, PluginProbe& probe,
                        const DeviceCapabilities& capabilities) {
  Plan with = plan;
  std::uint64_t drawn = 0;
  for (const PlannedCase& c : plan.cases) {
    if (c.outcome || c.hidden) continue;
    CaseRequest near = c.request;
    for (int i = 0; i < near.shape.rank; ++i) {
      if (near.shape.dims[i] < 8) continue;
      const std::uint64_t bits = random_bits(secret, 0x41DDE5, drawn++);
      const std::int64_t step = 1 + static_cast<std::int64_t>(bits % 3);
      near.shape.dims[i] += (bits >> 8) % 2 == 0 ? step : -step;
    }
    if (near.shape.dims == c.request.shape.dims) continue;
    Plan hidden;
    plan_case(hidden, c.plugin, near, probe, capabilities);
    for (PlannedCase& h : hidden.cases) {
      h.hidden = true;
      with.cases.push_back(std::move(h));
    }
  }
  return with;
}

namespace {
constexpr const char kHiddenRunSuffix[] = "-hidden";
}

std::string hidden_run_id(const std::string& run_id) { return run_id + kHiddenRunSuffix; }

bool is_hidden_run_id(const std::string& run_id) {
  const std::size_t suffix = sizeof kHiddenRunSuffix - 1;
  return run_id.size() > suffix &&
         run_id.compare(run_id.size() - suffix, suffix, kHiddenRunSuffix) == 0;
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

std::string describe_case(const PlannedCase& c) {
  std::string text = c.plugin->name + " " + dtype_name(c.request.dtype);
  if (!c.request.op.empty()) text += " " + c.request.op;
  text += " " + format_extent(c.request.shape) + " " + format_block(c.request.block);
  if (!c.request.params.empty()) text += " " + c.request.params;
  if (c.request.device >= 0) text += " device " + std::to_string(c.request.device);
  if (c.repetition > 0) text += " repetition " + std::to_string(c.repetition);
  if (c.hidden) text += " (hidden shape)";
  return text;
}

}  // namespace kb
