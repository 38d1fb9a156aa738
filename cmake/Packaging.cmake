# cpack -G DEB in the build folder: a .deb of what `cmake --install` installs, for apt install
# ./warpscope_*.deb. Its dependencies are worked out from the libraries the program links
# (dpkg-shlibdeps: GLFW, libepoxy, OpenMP's libgomp, the C++ runtime), plus what it loads when it
# runs (EGL and OpenGL, through libepoxy) and the font it draws with; Mesa's drivers (for a
# machine without NVIDIA's), ffmpeg (videos) and zenity (the Open dialog) are recommended. A CUDA build links the CUDA
# runtime statically and loads the driver (libcuda) when it runs, so it needs no CUDA package;
# without NVIDIA's driver it runs on its CPU backend. The package's name says which it is.
set(CPACK_PACKAGE_NAME warpscope)
set(CPACK_PACKAGE_VENDOR "the warpscope developers")
set(CPACK_PACKAGE_CONTACT "the warpscope developers <warpscope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "interactive GPU lab: run and watch simulations live with kernel timings")
set(CPACK_PACKAGE_DESCRIPTION
    "warpscope runs simulations (Game of Life, lattice Boltzmann flow, surface mesh optimization,
voxel hash intersection, graph clustering, a reduction and scan lab) in a window, live, with the
timings of their kernels, on a CUDA GPU or on the CPU. For teaching GPU computing and for
exploring each simulation.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libegl1, libgl1, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libegl-mesa0, libgl1-mesa-dri, ffmpeg, zenity")
if(WS_WITH_CUDA)
  set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}
This build has the CUDA backend (NVIDIA's driver needed for it) and the CPU backend.")
else()
  set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}
This build has the CPU backend only (it was built without the CUDA toolkit).")
endif()
include(CPack)
