# Every dependency comes from the distribution (or the CUDA toolkit). A missing one stops
# configure with the Debian/Ubuntu package that provides it.
find_package(PkgConfig)

function(ws_require found what package)
  if(NOT ${found})
    message(FATAL_ERROR "warpscope needs ${what}: install it with `sudo apt-get install ${package}` "
                        "(or run ./scripts/setup.sh, which installs everything).")
  endif()
endfunction()

ws_require(PkgConfig_FOUND "pkg-config" pkg-config)

if(WS_WITH_CUDA)
  find_package(CUDAToolkit)
  ws_require(CUDAToolkit_FOUND "the CUDA toolkit (nvcc, cudart, CUB/Thrust)"
             "nvidia-cuda-toolkit (or NVIDIA's cuda-toolkit)")
endif()

find_package(glfw3 3.3 QUIET)
ws_require(glfw3_FOUND "GLFW 3" libglfw3-dev)

pkg_check_modules(EPOXY QUIET IMPORTED_TARGET epoxy)
ws_require(EPOXY_FOUND "libepoxy" libepoxy-dev)

pkg_check_modules(IMGUI QUIET IMPORTED_TARGET imgui)
ws_require(IMGUI_FOUND "Dear ImGui" libimgui-dev)

pkg_check_modules(EGL QUIET IMPORTED_TARGET egl)
ws_require(EGL_FOUND "EGL" libegl-dev)

find_package(glm QUIET)
ws_require(glm_FOUND "GLM" libglm-dev)

find_path(STB_IMAGE_WRITE_DIR stb_image_write.h PATH_SUFFIXES stb)
find_library(STB_LIBRARY stb)
set(ws_stb_found FALSE)
if(STB_IMAGE_WRITE_DIR AND STB_LIBRARY)
  set(ws_stb_found TRUE)
endif()
ws_require(ws_stb_found "stb (stb_image, stb_image_write)" libstb-dev)
add_library(ws_stb INTERFACE)
target_include_directories(ws_stb INTERFACE ${STB_IMAGE_WRITE_DIR})
target_link_libraries(ws_stb INTERFACE ${STB_LIBRARY})

find_package(nlohmann_json 3 QUIET)
ws_require(nlohmann_json_FOUND "nlohmann-json" nlohmann-json3-dev)

find_package(CLI11 QUIET)
ws_require(CLI11_FOUND "CLI11" libcli11-dev)

find_package(OpenMP QUIET COMPONENTS CXX)
ws_require(OpenMP_CXX_FOUND "OpenMP" "libomp-dev (GCC's libgomp usually comes with g++)")

# MPI splits the LBM lattice over processes (compute/lbm/lbm_mpi.h): AUTO builds it where an MPI
# library is found (OpenMPI: libopenmpi-dev), ON requires it, OFF leaves it out; without it the
# program runs as one process.
set(WARPSCOPE_MPI AUTO CACHE STRING "split the LBM lattice over MPI processes: AUTO, ON or OFF")
set_property(CACHE WARPSCOPE_MPI PROPERTY STRINGS AUTO ON OFF)
set(WS_WITH_MPI OFF)
if(NOT WARPSCOPE_MPI STREQUAL "OFF")
  find_package(MPI QUIET COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    set(WS_WITH_MPI ON)
    message(STATUS "warpscope: MPI ${MPI_CXX_VERSION} (${MPIEXEC_EXECUTABLE}): `mpirun -np N "
                   "warpscope ...` splits the LBM lattice over N processes")
  elseif(WARPSCOPE_MPI STREQUAL "ON")
    ws_require(MPI_CXX_FOUND "MPI" "libopenmpi-dev openmpi-bin")
  endif()
endif()
if(NOT WS_WITH_MPI)
  message(STATUS "warpscope: building without MPI (none found, or WARPSCOPE_MPI=OFF): one process; "
                 "install libopenmpi-dev and openmpi-bin to split the LBM lattice over several")
endif()

find_package(Threads REQUIRED)
