#include "store/rows_view.hpp"

namespace kb {

std::vector<std::uint32_t> on_a_gpu(const RowsView& rows) {
  std::vector<std::uint32_t> positions;
  for (std::uint32_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].gpu_name.empty()) positions.push_back(i);
  }
  return positions;
}

std::map<std::string, std::vector<std::uint32_t>> positions_by_family(const RowsView& rows,
                                                                      bool gpu_only) {
  std::map<std::string, std::vector<std::uint32_t>> families;
  for (std::uint32_t i = 0; i < rows.size(); ++i) {
    if (!gpu_only || !rows[i].gpu_name.empty()) families[rows[i].family].push_back(i);
  }
  return families;
}

}  // namespace kb
