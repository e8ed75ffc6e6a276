# find_package(kbench): for strategies and families built outside the kbench tree.
#   kbench::plugin_support   the author helpers: kbench/plugin.h (the C ABI), kbench/plugin.hpp,
#                            kbench/support/ (strategy.hpp: KBENCH_STRATEGY; family.hpp:
#                            KBENCH_FAMILY; generated.cuh: device draws and checks), the in-tree
#                            families' headers (kbench/families/: their Operands) and the
#                            compiled part of the helpers
#   kbench_add_plugin()      a strategy (ABI version 3) or an older self-refereed plugin
#   kbench_add_family()      a family's referee library, exporting kbench_family
#   KBENCH_EXECUTABLE        the installed runner
include(CMakeFindDependencyMacro)
find_dependency(CUDAToolkit)
find_dependency(Threads)
include("${CMAKE_CURRENT_LIST_DIR}/kbenchTargets.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/KbenchPlugin.cmake")
get_filename_component(KBENCH_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(KBENCH_EXECUTABLE "${KBENCH_PREFIX}/bin/kbench")
