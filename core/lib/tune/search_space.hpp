// What `kbench tune` searches: the configurations of one plugin for one problem (data type,
// operation, shape) as a grid with an axis per knob — the block shape, then each of the plugin's
// parameters — and, of the grid, only the points the plugin accepts. A configuration is named by
// the cells of its results row (`block`, `params`), so a space built from planned cases and one
// read back from a CSV are the same space.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kb {

struct Configuration {
  std::string block;   // the row's block cell: "32x8", or "-" when the plugin chooses its own
  std::string params;  // the row's params cell: "tile=64;vec=2", or "" without parameters

  bool operator<(const Configuration& other) const {
    return block != other.block ? block < other.block : params < other.params;
  }
  bool operator==(const Configuration& other) const {
    return block == other.block && params == other.params;
  }
};

struct SearchAxis {
  std::string name;                 // "block", or a parameter's name
  std::vector<std::string> values;  // in axis order: a step is a move to the next or previous
};

class SearchSpace {
 public:
  // The space of these configurations, each a point (a configuration listed twice is one). The
  // block axis orders blocks by threads, then x, y, z (16x16, 32x8, 32x32); a parameter's axis
  // orders its values naturally (64 before 128), so the same configurations make the same space
  // whatever order a plugin declared them in or a CSV holds them. An InputError names a
  // configuration whose parameters are not the others' (other names, or another order).
  explicit SearchSpace(const std::vector<Configuration>& configurations);

  std::size_t size() const { return points_.size(); }
  const std::vector<SearchAxis>& axes() const { return axes_; }
  // Points are numbered in the grid's lexicographic order, the order exhaustive search takes.
  const Configuration& configuration(std::size_t point) const { return configurations_[point]; }
  std::optional<std::size_t> find(const Configuration& configuration) const;
  // The points one step away: along each axis, in each direction, the nearest accepted point with
  // the other coordinates unchanged (a value the plugin refuses here is stepped over).
  const std::vector<std::size_t>& neighbours(std::size_t point) const { return neighbours_[point]; }
  // "block=32x8 tile=64 vec=2"
  std::string describe(std::size_t point) const;

 private:
  std::vector<SearchAxis> axes_;
  std::vector<std::vector<std::size_t>> points_;  // each point's index on each axis
  std::vector<Configuration> configurations_;
  std::vector<std::vector<std::size_t>> neighbours_;
};

}  // namespace kb
