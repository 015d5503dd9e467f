# savepoint_torch_free_sources(<target> <out-var>): the engine sources of a
# torch-free fuzz target, as absolute paths, from torch-free-sources.txt.
function(savepoint_torch_free_sources target out)
  file(STRINGS ${PROJECT_SOURCE_DIR}/tests/fuzz/torch-free-sources.txt _lines REGEX "^${target} ")
  if(NOT _lines)
    message(FATAL_ERROR "tests/fuzz/torch-free-sources.txt has no line for '${target}'")
  endif()
  string(REPLACE " " ";" _parts "${_lines}")
  list(POP_FRONT _parts)
  list(TRANSFORM _parts PREPEND ${PROJECT_SOURCE_DIR}/)
  set(${out} ${_parts} PARENT_SCOPE)
endfunction()
