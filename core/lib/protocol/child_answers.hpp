// What a probe or a compile child sends besides a plugin's description, each kind with its codec:
// - `step`: the step it enters, so that where it died can be named;
// - `refused`: why it cannot answer, the file's fault; `short`: why, kbench's own (descriptors,
//   memory, room for its temporary folder);
// - `verdict`: what a plugin's accepts() said of a case;
// - `built`: a kernel file checked or compiled: its summary, and the cases (by their place in the
//   request) whose launch cannot be formed, with why.
// Each decoder refuses a record with a field missing, malformed or unknown (ProtocolError).
#pragma once

#include "protocol/codec.hpp"  // ProtocolError
#include "protocol/record.hpp"

#include <cstddef>
#include <map>
#include <string>

namespace kb {

Record encode_step(const std::string& name);
std::string decode_step(const Record& record);

Record encode_reason(const std::string& reason);  // `refused` and `short`
std::string decode_reason(const Record& record);

struct AcceptsAnswer {
  bool accepted = true;
  std::string why;  // the plugin's words, where it refused
};
Record encode_accepts_answer(const AcceptsAnswer& answer);
AcceptsAnswer decode_accepts_answer(const Record& record);

struct KernelCheckAnswer {
  std::string summary;
  std::map<std::size_t, std::string> unsupported;  // a case's place in the request -> why
};
Record encode_built(const KernelCheckAnswer& built);
// A case placed at `cases` or beyond is refused: the request had fewer.
KernelCheckAnswer decode_built(const Record& record, std::size_t cases);

}  // namespace kb
