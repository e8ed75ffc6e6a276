// `kbench referee`'s work: the judge of every version 3 case on one device, in a process that never
// loads a strategy. The parent announces each case on the control channel (the strategy's name and
// flags from its plan) and asks for the verdict once the worker answered; each worker has a
// channel of its own (handed over by the parent), on which it asks for what its timing loop needs:
// the case's operands, draws, poisons and checks. The referee decides the seeds, keeps the
// references and writes the verdict; a worker can ask, never tell.
//
// Control channel (parent -> referee; each request answered):
//   connect (a worker's channel attached) -> connected {connection}
//   case {connection, the case}           -> ready
//   verdict {connection}                  -> verdict {what the referee saw} (the case is freed)
// A worker's channel (worker -> referee; each request answered):
//   create (its standard output's memfd attached) -> operands (+ host operands' memfds) | failed
//   draw {purpose} | poison                       -> done | failed
//   check {name} | inputs {who} | same_output     -> checked {CheckAnswer}
//   destroy                                       -> done
#pragma once

#include "protocol/packet_channel.hpp"

namespace kb {

// Serves until the control channel closes. `device`: the CUDA device of the cases (-1: host
// cases only, no CUDA).
void serve_referee(PacketChannel control, int device);

}  // namespace kb
