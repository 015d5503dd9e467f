# Every Savepoint process (the GUI, savepoint-cli, the tests) loads a copy of
# libtorch_cpu without the unused libraries Debian links into it (see
# trim-libtorch.sh). That halves start-up: 288 shared objects become 42, and
# `savepoint-cli resume` reaches its first step ~0.25 s sooner.
#
# The copy lives in <build>/trimmed-libtorch, is made again whenever the system
# file is replaced, and is found through the executables' run path. Installed
# binaries carry it in <libdir>/savepoint; an install is not refreshed by an
# upgrade of the system libtorch, which is why the .deb depends on exactly the
# libtorch it was built with. Turn it off with -DSAVEPOINT_TRIM_LIBTORCH=OFF
# (then the system libtorch_cpu is loaded as is).
option(SAVEPOINT_TRIM_LIBTORCH "Load a copy of libtorch_cpu without the libraries it links but never calls" ON)

set(SAVEPOINT_TRIMMED_LIBTORCH_DIR "")
if(SAVEPOINT_TRIM_LIBTORCH)
  find_program(SAVEPOINT_PATCHELF patchelf)
  if(NOT TARGET torch_cpu)
    message(STATUS "SAVEPOINT_TRIM_LIBTORCH: LibTorch has no torch_cpu target; loading it as is")
  elseif(NOT SAVEPOINT_PATCHELF)
    message(WARNING "SAVEPOINT_TRIM_LIBTORCH: patchelf not found (packaging/setup-debian.sh installs it); "
                    "processes will start ~0.25 s slower")
  else()
    set(SAVEPOINT_TRIMMED_LIBTORCH_DIR ${CMAKE_BINARY_DIR}/trimmed-libtorch)
    get_target_property(_torch_cpu_file torch_cpu LOCATION)
    execute_process(COMMAND ${SAVEPOINT_PATCHELF} --print-soname ${_torch_cpu_file}
                    OUTPUT_VARIABLE _torch_cpu_soname OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
    # Runs on every build: the script returns at once while the system file is the
    # one the copy was made from, and makes it again after an upgrade replaced it
    # (dpkg keeps the package's old mtime, so a file-time dependency would not see it).
    add_custom_target(savepoint_trimmed_libtorch ALL
      COMMAND ${CMAKE_COMMAND} -E env PATCHELF=${SAVEPOINT_PATCHELF}
              sh ${PROJECT_SOURCE_DIR}/packaging/trim-libtorch.sh ${_torch_cpu_file} ${SAVEPOINT_TRIMMED_LIBTORCH_DIR}
      BYPRODUCTS ${SAVEPOINT_TRIMMED_LIBTORCH_DIR}/${_torch_cpu_soname}
                 ${SAVEPOINT_TRIMMED_LIBTORCH_DIR}/removed-needed.txt ${SAVEPOINT_TRIMMED_LIBTORCH_DIR}/source.txt
      VERBATIM)
    include(GNUInstallDirs)
    install(FILES ${SAVEPOINT_TRIMMED_LIBTORCH_DIR}/${_torch_cpu_soname}
            DESTINATION ${CMAKE_INSTALL_LIBDIR}/savepoint)
  endif()
endif()

# For each target that links LibTorch: build the copy first, and put its
# directory in the run path of the executables that link `target` (scope
# INTERFACE for a library, PRIVATE for an executable). The executables name
# libtorch_cpu directly, so their own run path decides which file is loaded.
# A plain linker flag, not BUILD_RPATH: for installable targets CMake pads a
# BUILD_RPATH with a trailing ':' (room to rewrite it in place at install), and
# an empty run-path entry makes the loader search the current directory.
function(savepoint_use_trimmed_libtorch target scope)
  if(TARGET savepoint_trimmed_libtorch)
    add_dependencies(${target} savepoint_trimmed_libtorch)
    target_link_options(${target} ${scope} "LINKER:-rpath,${SAVEPOINT_TRIMMED_LIBTORCH_DIR}")
  endif()
endfunction()

# After install(TARGETS ...): point an installed executable at the installed copy
# (CMake leaves a run path it did not set alone, so this replaces the build tree's).
function(savepoint_install_trimmed_rpath exe_name)
  if(SAVEPOINT_TRIMMED_LIBTORCH_DIR)
    install(CODE "execute_process(COMMAND ${SAVEPOINT_PATCHELF} --set-rpath $ORIGIN/../${CMAKE_INSTALL_LIBDIR}/savepoint
                  \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${exe_name} COMMAND_ERROR_IS_FATAL ANY)")
  endif()
endfunction()
