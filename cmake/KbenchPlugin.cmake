# kbench_add_plugin(<target> SOURCES <file>... [LIBRARIES <lib>...]
#                   [CUDA_ARCHITECTURES <arch>...] [OUTPUT_DIRECTORY <dir>])
#
# Builds one plugin (a version 3 strategy, or an older self-refereed plugin): a shared module
# named <target>.so with every symbol hidden except the `kbench_plugin` entry point (KB_EXPORT),
# linked to the author helpers, written to
# OUTPUT_DIRECTORY (default: KBENCH_PLUGIN_DIR, the build's plugin folder the runner searches, in
# the kbench tree; the current binary folder for a project using an installed kbench through
# find_package(kbench)). In-tree plugins are installed when KBENCH_INSTALL_PLUGINS is set.
# The CUDA architectures it is built for are compiled in as KB_CUDA_ARCHS, so the plugin can
# tell `kbench list` and name them when a device has no matching code.
function(kbench_add_plugin target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "OUTPUT_DIRECTORY" "SOURCES;LIBRARIES;CUDA_ARCHITECTURES")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "kbench_add_plugin(${target}): SOURCES is required")
  endif()
  if(NOT ARG_OUTPUT_DIRECTORY AND KBENCH_PLUGIN_DIR)
    set(ARG_OUTPUT_DIRECTORY ${KBENCH_PLUGIN_DIR})
  elseif(NOT ARG_OUTPUT_DIRECTORY)
    set(ARG_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  if(NOT ARG_CUDA_ARCHITECTURES)
    set(ARG_CUDA_ARCHITECTURES ${CMAKE_CUDA_ARCHITECTURES})
  endif()

  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE kbench::plugin_support ${ARG_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    CUDA_ARCHITECTURES "${ARG_CUDA_ARCHITECTURES}"
    # One CUDA runtime in the process: the runner's streams and events are the plugin's too.
    CUDA_RUNTIME_LIBRARY Shared
    LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIRECTORY})

  # "90" -> sm_90,compute_90; "90-real" -> sm_90; "90a-virtual" -> compute_90a.
  set(archs "")
  foreach(arch IN LISTS ARG_CUDA_ARCHITECTURES)
    if(arch MATCHES "^([0-9]+[af]?)-real$")
      list(APPEND archs "sm_${CMAKE_MATCH_1}")
    elseif(arch MATCHES "^([0-9]+[af]?)-virtual$")
      list(APPEND archs "compute_${CMAKE_MATCH_1}")
    elseif(arch MATCHES "^[0-9]+[af]?$")
      list(APPEND archs "sm_${arch}" "compute_${arch}")
    else()
      list(APPEND archs "${arch}")
    endif()
  endforeach()
  list(JOIN archs "," archs)
  target_compile_definitions(${target} PRIVATE KB_CUDA_ARCHS="${archs}")
  if(KBENCH_INSTALL_PLUGINS)
    install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/kbench/plugins)
  endif()
endfunction()

# kbench_add_family(<target> SOURCES <file>... [LIBRARIES <lib>...]
#                   [CUDA_ARCHITECTURES <arch>...] [OUTPUT_DIRECTORY <dir>])
#
# Builds a family's referee (ABI version 3): a shared module exporting `kbench_family` alone
# (KBENCH_FAMILY in kbench/support/family.hpp), which allocates each case's buffers, draws the
# inputs, counts the work and checks the outputs of every strategy of the family. Write it to the
# folder of the family's strategies (the default, as for kbench_add_plugin): the runner finds a
# strategy's referee among the plugin folders it searches, and refuses a version 3 strategy whose
# family library it cannot find. Its device code (the draws and checks of
# kbench/support/generated.cuh) is built, as a strategy's, for CMAKE_CUDA_ARCHITECTURES unless
# CUDA_ARCHITECTURES says otherwise: build it for every device its strategies run on. In the
# kbench tree, installed beside the built-in plugins; a family built out of tree against an
# installed kbench (find_package(kbench)) stays in its build folder: pass that folder to
# `kbench run --plugins` and `kbench validate --plugins`.
function(kbench_add_family target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "kbench_add_family(${target}): SOURCES is required")
  endif()
  kbench_add_plugin(${target} ${ARGN})
endfunction()
