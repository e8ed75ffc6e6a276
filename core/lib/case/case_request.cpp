#include "case/case_request.hpp"

namespace kb {

kb_case CaseRequest::to_abi() const {
  kb_case c{};
  c.dtype = dtype;
  c.op = op.c_str();
  c.rank = shape.rank;
  for (int i = 0; i < 3; ++i) {
    c.shape[i] = shape.dims[i];
    c.block[i] = block.dims[i];
  }
  c.seed = seed;
  c.device = device;
  c.verbose = verbose ? 1 : 0;
  c.params = params.c_str();
  return c;
}

}  // namespace kb
