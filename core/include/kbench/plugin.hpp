// Optional C++ helpers for plugin authors: error checks, arrays on the device or the host, seeded
// inputs, comparisons, checked launches, host loops on all threads, host values kept between
// cases, and the glue from a C++ strategy (strategy.hpp) or referee (family.hpp) to the C ABI of
// plugin.h. (The version 2 author API is kbench/support/adapter.hpp, included by name.) What each
// family knows (its operands, inputs, work and check) lives in
// kbench/families/.
#pragma once

#include <kbench/plugin.h>
#include <kbench/support/array.hpp>
#include <kbench/support/compare.hpp>
#include <kbench/support/error.hpp>
#include <kbench/support/family.hpp>
#include <kbench/support/host_vector.hpp>
#include <kbench/support/launch.hpp>
#include <kbench/support/memo.hpp>
#include <kbench/support/parallel.hpp>
#include <kbench/support/random.hpp>
#include <kbench/support/staging.hpp>
#include <kbench/support/strategy.hpp>
