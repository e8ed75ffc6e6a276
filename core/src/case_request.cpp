#include "case_request.hpp"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

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

namespace {

// Extents travel as their numbers, "rank,d0,d1,d2" and "b0,b1,b2": what the command line said
// ("2^20", "8192x4096") was parsed once, in the parent.
template <typename Int, std::size_t N>
std::string numbers_text(const std::array<Int, N>& values) {
  std::string text;
  for (const Int v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

std::vector<long long> numbers_of(const std::string& text, std::size_t count, const char* what) {
  std::vector<long long> values;
  const char* at = text.c_str();
  while (values.size() < count) {
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(at, &end, 10);
    if (end == at || errno == ERANGE) break;
    values.push_back(value);
    at = end;
    if (values.size() < count && *at++ != ',') break;
  }
  if (values.size() != count || *at != '\0') {
    throw std::runtime_error(std::string("case record: malformed ") + what + " '" + text + "'");
  }
  return values;
}

}  // namespace

Record to_record(const CaseRequest& c) {
  return {{"dtype", std::to_string(static_cast<unsigned>(c.dtype))},
          {"op", c.op},
          {"shape", std::to_string(c.shape.rank) + "," + numbers_text(c.shape.dims)},
          {"block", numbers_text(c.block.dims)},
          {"seed", std::to_string(c.seed)},
          {"device", std::to_string(c.device)},
          {"verbose", c.verbose ? "1" : "0"},
          {"params", c.params}};
}

CaseRequest case_from_record(const Record& r) {
  CaseRequest c;
  c.dtype = static_cast<kb_dtype>(std::stoul(r.at("dtype")));
  c.op = r.at("op");
  const auto shape = numbers_of(r.at("shape"), 4, "shape");
  c.shape.rank = static_cast<int>(shape[0]);
  for (int i = 0; i < 3; ++i) c.shape.dims[i] = shape[i + 1];
  const auto block = numbers_of(r.at("block"), 3, "block");
  for (int i = 0; i < 3; ++i) c.block.dims[i] = static_cast<std::int32_t>(block[i]);
  c.seed = std::stoull(r.at("seed"));
  c.device = std::stoi(r.at("device"));
  c.verbose = r.at("verbose") == "1";
  c.params = r.at("params");
  return c;
}

}  // namespace kb
