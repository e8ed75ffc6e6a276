# find_package(kbench): the plugin helper headers, the family references (kbench::plugin_support)
# and kbench_add_plugin(), for plugins built outside the kbench tree.
include(CMakeFindDependencyMacro)
find_dependency(CUDAToolkit)
find_dependency(Threads)
include("${CMAKE_CURRENT_LIST_DIR}/kbenchTargets.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/KbenchPlugin.cmake")
get_filename_component(KBENCH_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(KBENCH_EXECUTABLE "${KBENCH_PREFIX}/bin/kbench")
