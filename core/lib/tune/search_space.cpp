#include "tune/search_space.hpp"

#include "case/case_spec.hpp"
#include "plugin/params.hpp"
#include "util/input_error.hpp"
#include "util/natural_order.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace kb {
namespace {

bool block_less(const std::string& a, const std::string& b) {
  const auto order = [](const std::string& cell) {
    const Block block = cell == "-" ? Block{} : parse_blocks(cell).front();
    return std::make_tuple(block.threads(), block.dims[0], block.dims[1], block.dims[2]);
  };
  return order(a) < order(b);
}

// The values each axis takes, in axis order.
std::vector<SearchAxis> axes_of(const std::vector<Configuration>& configurations) {
  std::vector<SearchAxis> axes{{"block", {}}};
  const auto names = parse_params(configurations.front().params);
  for (const auto& [name, value] : names) axes.push_back({name, {}});
  for (const auto& c : configurations) {
    axes[0].values.push_back(c.block);
    const auto params = parse_params(c.params);
    const bool same_names =
        params.size() == names.size() &&
        std::equal(params.begin(), params.end(), names.begin(),
                   [](const auto& a, const auto& b) { return a.first == b.first; });
    if (!same_names) {
      throw InputError("configuration '" + c.params + "' does not name the parameters of '" +
                       configurations.front().params + "'");
    }
    for (std::size_t i = 0; i < params.size(); ++i) axes[i + 1].values.push_back(params[i].second);
  }
  for (std::size_t a = 0; a < axes.size(); ++a) {
    auto& values = axes[a].values;
    if (a == 0) {
      std::sort(values.begin(), values.end(), block_less);
    } else {
      std::sort(values.begin(), values.end(), natural_less);
    }
    values.erase(std::unique(values.begin(), values.end()), values.end());
  }
  return axes;
}

std::size_t index_on(const SearchAxis& axis, const std::string& value) {
  return static_cast<std::size_t>(std::find(axis.values.begin(), axis.values.end(), value) -
                                  axis.values.begin());
}

}  // namespace

SearchSpace::SearchSpace(const std::vector<Configuration>& configurations) {
  if (configurations.empty()) return;
  axes_ = axes_of(configurations);
  std::map<std::vector<std::size_t>, Configuration> by_point;
  for (const auto& c : configurations) {
    std::vector<std::size_t> point{index_on(axes_[0], c.block)};
    const auto params = parse_params(c.params);
    for (std::size_t i = 0; i < params.size(); ++i) {
      point.push_back(index_on(axes_[i + 1], params[i].second));
    }
    by_point.emplace(point, c);
  }
  for (const auto& [point, c] : by_point) {
    points_.push_back(point);
    configurations_.push_back(c);
  }
  // Along axis a, the points that agree everywhere else form a line; neighbours are adjacent on it.
  neighbours_.resize(points_.size());
  for (std::size_t a = 0; a < axes_.size(); ++a) {
    std::map<std::vector<std::size_t>, std::vector<std::size_t>> lines;
    for (std::size_t p = 0; p < points_.size(); ++p) {
      auto rest = points_[p];
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(a));
      lines[rest].push_back(p);  // in increasing order on axis a: points_ is sorted
    }
    for (const auto& [rest, line] : lines) {
      for (std::size_t i = 0; i < line.size(); ++i) {
        if (i > 0) neighbours_[line[i]].push_back(line[i - 1]);
        if (i + 1 < line.size()) neighbours_[line[i]].push_back(line[i + 1]);
      }
    }
  }
}

std::optional<std::size_t> SearchSpace::find(const Configuration& configuration) const {
  const auto it = std::find(configurations_.begin(), configurations_.end(), configuration);
  if (it == configurations_.end()) return std::nullopt;
  return static_cast<std::size_t>(it - configurations_.begin());
}

std::string SearchSpace::describe(std::size_t point) const {
  std::string text;
  for (std::size_t a = 0; a < axes_.size(); ++a) {
    text += (a == 0 ? "" : " ") + axes_[a].name + "=" + axes_[a].values[points_[point][a]];
  }
  return text;
}

}  // namespace kb
