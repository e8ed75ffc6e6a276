// The exit codes of `kbench`, documented in README.md and docs/nothing-lost.md.
#pragma once

namespace kb {

inline constexpr int kExitOk = 0;            // every case ok or unsupported
inline constexpr int kExitCasesFailed = 1;   // some case ended otherwise (error, crashed, ...)
inline constexpr int kExitBadInput = 2;      // refused input: nothing was run
inline constexpr int kExitInternal = 3;      // a fault of kbench itself, said in one line
inline constexpr int kExitWriteFailed = 4;   // a results or samples file could not be written
inline constexpr int kExitInterrupted = 130; // SIGINT, SIGTERM, SIGHUP...: resume to finish

}  // namespace kb
