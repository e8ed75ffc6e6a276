// How a check's outcome reads in a row, whoever ran it: the family's referee (in its own process)
// or a version 1 or 2 plugin's own verify (in the worker).
#pragma once

#include <kbench/plugin.h>

#include <string>

namespace kb {

// A check said KB_OK, but its own figures say otherwise: passed = 0, a NaN error, or an error
// over the tolerance it names. Empty when they agree.
std::string verification_contradiction(kb_status status, const kb_verification& check);

// True when the check failed: KB_VERIFY_FAILED, or KB_OK contradicted by its figures.
bool verification_failed(kb_status status, const kb_verification& check);

// What a failed check says in the row: "check 'timed launch' failed: max relative error ... ;
// the family's words (its metrics)". A self-refereed plugin's failure keeps the words of its own
// verify ("verification failed: ..."), which its authors' tests know.
std::string check_failure(const char* check, bool refereed, kb_status status,
                          const kb_verification& v, const kb_message& message);

}  // namespace kb
