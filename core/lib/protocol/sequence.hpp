// Every record on a child's answer channel is tied to the request it answers. The channel is a
// descriptor of the child's, and the child runs plugin code: a plugin may write on it, by mistake
// or not (a result-shaped line, a partial line), and would put the answers out of step with the
// cases, each later row holding the previous case's numbers. So the parent numbers its requests
// (from a number drawn at random for each child, one more each time), the child copies the number
// of the request it serves into each record it sends for it (0 before the first: a probe's or a
// referee's greeting), and the parent takes only records carrying the number it expects; anything
// else ends the child and becomes an error of the case in flight. (The verdict that makes a row
// `ok` never comes from this channel: the referee tells the parent itself.)
#pragma once

#include "protocol/record.hpp"

#include <cstdint>
#include <optional>

namespace kb {

// Adds the number to a record about to be sent.
void set_sequence(Record& fields, std::uint64_t sequence);

// Removes the number from a record received, so the record decodes as its kind; nothing when it
// has none or a malformed one.
std::optional<std::uint64_t> take_sequence(Record& fields);

}  // namespace kb
