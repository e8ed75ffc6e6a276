// Sweep planning: which plugins, and the cross product of sizes x blocks x data types x ops for
// each, filtered by the plugin's own acceptance rule.
#pragma once

#include "case_request.hpp"
#include "loader.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kb {

struct SweepRequest {
  std::vector<std::string> families;      // empty: every family
  std::vector<std::string> plugin_globs;  // empty: every plugin
  std::string sizes, blocks, dtypes, ops; // empty: the family's defaults (ops: the plugin's)
  std::uint64_t seed = 42;
  std::vector<int> devices{0};            // CUDA devices; each CUDA case runs on each
  bool verbose = false;
  bool zip = false;                       // sizes[i] with blocks[i], not the cross product
  std::vector<std::string> cases;         // explicit "PLUGIN DTYPE SHAPE [BLOCK [OP]]" cases
};

struct PlannedCase {
  std::shared_ptr<const LoadedPlugin> plugin;
  CaseRequest request;
  // Non-empty: the case is not run but recorded as `unsupported` with this reason (a data type
  // the plugin lacks, or a shape for which the plugin accepted none of the blocks).
  std::string unsupported_reason;
  int repetition = 0;  // which pass of --repetitions over the plan ran it (0: the first)
};

struct Plan {
  std::vector<PlannedCase> cases;
};

// Plugins matching the families and globs; an InputError names a family or glob that matched
// nothing.
std::vector<std::shared_ptr<const LoadedPlugin>> select_plugins(
    const std::vector<std::shared_ptr<const LoadedPlugin>>& loaded,
    const std::vector<std::string>& families, const std::vector<std::string>& globs);

Plan plan_sweep(const std::vector<std::shared_ptr<const LoadedPlugin>>& plugins,
                const SweepRequest& request);

// Slice `index` of `count`: every count-th case, starting at index. The slices of one plan are
// disjoint and together hold all of it, so N machines can share a sweep (a Slurm job array).
// Throws InputError on a malformed "i/N".
Plan shard(const Plan& plan, const std::string& spec);

// The plan `count` times, one whole pass after another, each case tagged with its pass: the
// repetitions of a case are spread over the run, not back to back, so whatever drifts during a
// run (clocks, temperature, a neighbour on the machine) reaches every repetition differently and
// shows up as the spread between them.
Plan repeat(const Plan& plan, int count);

// Identifies a case across runs, for --resume: plugin|dtype|op|shape|block|device.
std::string case_key(const std::string& plugin, const std::string& dtype, const std::string& op,
                     const std::string& shape, const std::string& block, const std::string& device);
std::string case_key(const PlannedCase& c);

}  // namespace kb
