# The installed program (ctest's Install.*): `cmake --install` into a fresh prefix puts the program,
# its assets, the documentation and the desktop entry with its icon in their places, and the
# program run from another folder finds its assets beside it: a pattern that only the installed
# assets hold starts Life, headless. Run with -DBUILD=<build folder> -DPREFIX=<a scratch folder>.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX}
                RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${status})")
endif()
foreach(file bin/warpscope share/warpscope/assets/presets/lbm-cylinder.json
             share/warpscope/assets/patterns/glider.rle share/applications/warpscope.desktop
             share/icons/hicolor/scalable/apps/warpscope.svg share/doc/warpscope/README.md)
  if(NOT EXISTS ${PREFIX}/${file})
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
file(COPY_FILE ${PREFIX}/share/warpscope/assets/patterns/glider.rle
     ${PREFIX}/share/warpscope/assets/patterns/only-installed.rle)
file(MAKE_DIRECTORY ${PREFIX}/elsewhere)
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=WARPSCOPE_ASSETS ${PREFIX}/bin/warpscope --headless
          --backend cpu --module life --size 64 --set life.pattern=only-installed --steps 8
  WORKING_DIRECTORY ${PREFIX}/elsewhere RESULT_VARIABLE status OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the installed program failed (${status}):\n${output}")
endif()
message(STATUS "the installed program ran:\n${output}")
