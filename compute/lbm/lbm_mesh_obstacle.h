#pragma once
// An obstacle from a triangle mesh (OBJ, PLY or OFF, compute/io/mesh_io.h) in a 3-D lattice: the
// mesh scaled so that its largest side spans `size` cells and centred at a point, then voxelized:
// a cell is solid where its centre is inside the mesh, by the parity of the mesh's crossings
// along the line through it parallel to z.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compute/io/mesh_io.h"
#include "compute/lbm/lbm_cell.h"

namespace ws::lbm {

// Where the mesh goes, in cells from the lattice's corner (cell (i, j, k) spans [i, i + 1] x ...).
struct MeshPlacement {
  double x = 0, y = 0, z = 0, size = 1;
};

// Parses "x,y,z,size" (cells; size at least 1, each at most 32768); "" gives none. Throws
// InputError saying what is wrong.
std::optional<MeshPlacement> parseMeshPlacement(const std::string& text);
// Where none is given: a quarter of the way along x, centred in y and z, a third of the height.
MeshPlacement defaultMeshPlacement(const Grid& g);

// The mesh moved and scaled into lattice coordinates. Throws InputError for a mesh with no
// extent (all its vertices at one point).
io::TriangleMesh placeMesh(const io::TriangleMesh& mesh, const MeshPlacement& at);

// For every cell, 1 where its centre is inside the placed mesh. A crossing left without a partner
// along its line (a mesh that is not closed) is dropped, so an open mesh leaves no streaks.
std::vector<std::uint8_t> voxelizeMesh(const io::TriangleMesh& placed, const Grid& g);

}  // namespace ws::lbm
