#include "case_request.hpp"

#include <stdexcept>

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

Record to_record(const CaseRequest& c) {
  return {{"dtype", std::to_string(static_cast<unsigned>(c.dtype))},
          {"op", c.op},
          {"shape", format_extent(c.shape)},
          {"block", format_block(c.block)},
          {"seed", std::to_string(c.seed)},
          {"device", std::to_string(c.device)},
          {"verbose", c.verbose ? "1" : "0"},
          {"params", c.params}};
}

CaseRequest case_from_record(const Record& r) {
  CaseRequest c;
  c.dtype = static_cast<kb_dtype>(std::stoul(r.at("dtype")));
  c.op = r.at("op");
  c.shape = parse_sizes(r.at("shape")).at(0);
  if (r.at("block") != "-") c.block = parse_blocks(r.at("block")).at(0);
  c.seed = std::stoull(r.at("seed"));
  c.device = std::stoi(r.at("device"));
  c.verbose = r.at("verbose") == "1";
  c.params = r.at("params");
  return c;
}

}  // namespace kb
