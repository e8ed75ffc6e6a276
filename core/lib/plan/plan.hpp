// Sweep planning: which plugins, and the cross product of sizes x blocks x data types x ops for
// each, filtered by the plugin's own acceptance rule (asked through the probe process).
#pragma once

#include "case/case_outcome.hpp"
#include "case/case_request.hpp"
#include "plan/device_code.hpp"
#include "plugin/family_table.hpp"
#include "plugin/plugin_info.hpp"
#include "protocol/plugin_probe.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kb {

struct SweepRequest {
  std::vector<std::string> families;      // empty: every family
  std::vector<std::string> plugin_globs;  // empty: every plugin
  std::string sizes, blocks, dtypes, ops; // empty: the family's defaults (ops: the plugin's)
  std::uint64_t seed = 42;
  std::vector<int> devices{0};            // CUDA devices; each CUDA case runs on each
  DeviceCapabilities capabilities;        // theirs, where known: a case says which code it runs,
                                          // and a plugin without code for a device is
                                          // `unsupported` there
  bool verbose = false;
  bool zip = false;                       // sizes[i] with blocks[i], not the cross product
  std::vector<std::string> cases;         // explicit "PLUGIN DTYPE SHAPE [BLOCK [OP]]" cases
  std::vector<std::string> params;        // --param NAME=V1,V2, each name once
  bool every_choice = false;              // a parameter --param does not name takes each of its
                                          // choices, not only its declared values (tune)
};

struct PlannedCase {
  std::shared_ptr<const PluginInfo> plugin;
  CaseRequest request;
  // Set: the case is not run but recorded with this outcome (a status and its message):
  // `unsupported` (a data type the plugin lacks, no code for the device, a shape for which it
  // accepted none of the blocks), or the crash or hang of the plugin's accepts() (`crashed`,
  // `timeout`).
  std::optional<CaseOutcome> outcome;
  std::string code;    // which of the plugin's code runs on the device (plan/device_code.hpp)
  int repetition = 0;  // which pass of --repetitions over the plan ran it (0: the first)
  // A shape drawn near an asked one (hidden_shapes): its rows go to a run of their own.
  bool hidden = false;
};

struct Plan {
  std::vector<PlannedCase> cases;
  std::vector<std::string> notes;  // what the user should know of the plan (a --param that
                                   // applies to some plugins only)
};

// Plugins matching the families and globs; an InputError names a family or glob that matched
// nothing.
std::vector<std::shared_ptr<const PluginInfo>> select_plugins(
    const std::vector<std::shared_ptr<const PluginInfo>>& loaded,
    const std::vector<std::string>& families, const std::vector<std::string>& globs);

// The --param request (parsed) checked against the plugins selected: an InputError names a
// parameter no plugin has, or a value outside a plugin's choices; one note per parameter some
// plugins do not have.
std::vector<std::string> check_param_request(
    const std::vector<std::shared_ptr<const PluginInfo>>& plugins,
    const std::map<std::string, std::vector<std::string>>& asked);

// --blocks (as given) checked against the plugins selected: in a sweep of several kinds the blocks
// are for the plugins that take one; where none does, every row would say '-' and the blocks asked
// for would go unsaid, so an InputError says so.
void check_blocks_request(const std::vector<std::shared_ptr<const PluginInfo>>& plugins,
                          const std::string& blocks);

// Every case of the request, in order. An InputError names an operation no plugin offers, a value
// a plugin cannot take, or a case planned twice (a size given as 1024 and as 1024x1024).
// `families`: the descriptions of every plugin found, not only of those selected.
Plan plan_sweep(const std::vector<std::shared_ptr<const PluginInfo>>& plugins,
                const SweepRequest& request, const FamilyTable& families, PluginProbe& probe);

// One case, its block and parameters fixed: planned when the plugin accepts it, else with the
// outcome `unsupported` and the plugin's reason (or the crash or hang of its accepts()); on a
// device of `capabilities` without code for it, `unsupported` with the architectures.
void plan_case(Plan& plan, const std::shared_ptr<const PluginInfo>& plugin,
               const CaseRequest& request, PluginProbe& probe,
               const DeviceCapabilities& capabilities);

// The devices a plugin's cases run on: each of the request's for a CUDA plugin, the host (-1)
// for a host plugin.
std::vector<int> devices_of(const PluginInfo& plugin, const SweepRequest& request);

// Slice `index` of `count`: every count-th case, starting at index. The slices of one plan are
// disjoint and together hold all of it, so N machines can share a sweep (a Slurm job array); a
// slice may be empty when N exceeds the plan's size. Throws InputError on a malformed "i/N".
Plan shard(const Plan& plan, const std::string& spec);

// The shard "i/N" as its numbers say it ("00/2" and "0/2" are the same shard: "0/2"), for what
// must tell shards apart (the run lock). InputError as shard().
std::string shard_name(const std::string& spec);

// Beside each shape a case asks for, one drawn near it from `secret` (each extent of 8 or more
// moved by 1 to 3, up or down: 8191x8193 beside 8192^2), planned for the same plugin, data type,
// operation, block and parameters, and marked hidden. A nightly's repetitions add them: a strategy
// honest only at the sizes people sweep shows there, and the shapes, new each night, make no
// trend. The same secret gives the same shapes (the shards of one run agree).
Plan with_hidden_shapes(const Plan& plan, std::uint64_t secret, PluginProbe& probe,
                        const DeviceCapabilities& capabilities);

// The run a hidden shape's rows go to: "<run id>-hidden", beside the run's own.
std::string hidden_run_id(const std::string& run_id);
// Whether a run holds hidden shapes: verdicts leave such a run out unless it is named.
bool is_hidden_run_id(const std::string& run_id);

// The plan `count` times, one whole pass after another, each case tagged with its pass: the
// repetitions of a case are spread over the run, not back to back, so whatever drifts during a
// run (clocks, temperature, a neighbour on the machine) reaches every repetition differently and
// shows up as the spread between them.
Plan repeat(const Plan& plan, int count);

// "reduce/fast int32 sum 1048576 256 device 0 repetition 2", to name a case in messages (the
// first repetition says none).
std::string describe_case(const PlannedCase& c);

}  // namespace kb
