// The columns of a results row that identify a case, decided once: their names, the one order
// every key, table and file lists them in, and which of them each question asks about — the same
// case in another run, the same case within a run, one sample's case, one tuning problem. A new
// defining column (a plugin's parameters were one) is one more entry in the enum and in the sets
// that need it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace kb {

// In the order keys, tables and files list them.
enum class CaseColumn : std::uint8_t {
  run_id,
  gpu,       // the GPU as a table labels it (its model, or its card): no cell, the reader's label
  gpu_name,  // the GPU's name as the row gives it
  gpu_uuid,  // the card
  device,    // the CUDA device index it ran on, or "host"
  family,
  plugin,
  plugin_version,
  dtype,
  op,
  shape,
  block,
  params,
  seed,
  cache,
  repetition,
};

// "run_id", "gpu", ...: a key column's name in tables and files, and its results CSV column's (no
// results column is named "gpu").
const char* column_name(CaseColumn column);

// A set of those columns; listed, always in CaseColumn's order.
class CaseColumns {
 public:
  constexpr CaseColumns(std::initializer_list<CaseColumn> columns) {
    for (const CaseColumn column : columns) bits_ |= bit(column);
  }
  constexpr CaseColumns operator|(CaseColumns other) const { return from_bits(bits_ | other.bits_); }
  constexpr CaseColumns without(CaseColumns other) const { return from_bits(bits_ & ~other.bits_); }
  constexpr bool has(CaseColumn column) const { return (bits_ & bit(column)) != 0; }

  std::vector<CaseColumn> list() const;
  std::vector<std::string> names() const;

 private:
  static constexpr std::uint32_t bit(CaseColumn column) {
    return std::uint32_t{1} << static_cast<unsigned>(column);
  }
  static constexpr CaseColumns from_bits(std::uint32_t bits) {
    CaseColumns columns{};
    columns.bits_ = bits;
    return columns;
  }
  std::uint32_t bits_ = 0;
};

// What is computed.
inline constexpr CaseColumns kProblem = {CaseColumn::plugin, CaseColumn::dtype, CaseColumn::op,
                                         CaseColumn::shape};
// How the plugin launches it: what `tune` searches and `compare --by plugin` takes the best of.
inline constexpr CaseColumns kConfiguration = {CaseColumn::block, CaseColumn::params};

// The same case in another run, on another card of its GPU model, with another seed or plugin
// version: what `compare` pivots, the gate judges and the history follows. Its repetitions and
// cards pool.
inline constexpr CaseColumns kComparedCase =
    CaseColumns{CaseColumn::gpu, CaseColumn::family, CaseColumn::cache} | kProblem | kConfiguration;

// The same case within one run: every column that changes what ran, so that a resumed run skips
// the cases it has and no case is written twice.
inline constexpr CaseColumns kCaseInRun =
    CaseColumns{CaseColumn::plugin_version, CaseColumn::device, CaseColumn::seed,
                CaseColumn::cache, CaseColumn::repetition} |
    kProblem | kConfiguration;

// A sample's case in the --samples-out file: its run and card, then the case within the run as
// that file's header has always named it (the seed and plugin version are in the results row).
inline constexpr CaseColumns kSampleCase =
    (kCaseInRun | CaseColumns{CaseColumn::run_id, CaseColumn::gpu_uuid})
        .without({CaseColumn::seed, CaseColumn::plugin_version});

// One tuning problem among rows already measured (`tune --simulate`): a case of one run and GPU
// less its configuration and repetition, which vary within the problem.
inline constexpr CaseColumns kTuningProblem =
    (kCaseInRun | CaseColumns{CaseColumn::run_id, CaseColumn::gpu_name})
        .without(kConfiguration | CaseColumns{CaseColumn::repetition});

// Those that tell cases apart only sometimes: a table prints them only where they do.
inline constexpr CaseColumns kShownWhereTheyDiffer = {CaseColumn::gpu, CaseColumn::op,
                                                      CaseColumn::params, CaseColumn::cache};

}  // namespace kb
