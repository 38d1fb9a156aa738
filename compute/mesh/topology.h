#pragma once
// A triangle mesh's connectivity, built once and never changed by the optimizer (only positions
// move): each vertex's triangles and neighbours as compressed lists, and what is wrong with the
// mesh. Degenerate triangles, boundary edges and non-manifold edges are counted and reported,
// not refused; the vertices on boundary and non-manifold edges are marked so that they stay put.
#include <cstdint>
#include <string>
#include <vector>

#include "compute/io/mesh_io.h"

namespace ws::mesh {

// The mesh files' types and readers (compute/io/, shared with the voxel module), by their names
// here.
using io::checkMeshName;
using io::loadMesh;
using io::MeshFormat;
using io::meshFormatOf;
using io::meshPathOf;
using io::readObj;
using io::readOff;
using io::readPly;
using io::saveMesh;
using io::shippedMeshes;
using io::TriangleMesh;
using io::writeMesh;

struct Topology {
  std::size_t vertices = 0;
  // Vertex v's triangles are triangleOf[triangleStart[v]] to triangleOf[triangleStart[v + 1] - 1],
  // its neighbours (sorted, each once) likewise in neighbourOf.
  std::vector<std::uint32_t> triangleStart, triangleOf;
  std::vector<std::uint32_t> neighbourStart, neighbourOf;
  std::vector<std::uint8_t> pinned;  // 1: on a boundary or non-manifold edge, or on no triangle

  std::size_t degenerateTriangles = 0;  // a corner repeated, or zero area
  std::size_t boundaryEdges = 0;        // edges of one triangle
  std::size_t nonManifoldEdges = 0;     // edges of three or more triangles

  std::size_t degree(std::uint32_t v) const { return neighbourStart[v + 1] - neighbourStart[v]; }
  std::size_t maxDegree() const;
  double meanDegree() const {
    return vertices ? double(neighbourOf.size()) / double(vertices) : 0.0;
  }
  // "closed and manifold", or what was found: "3 degenerate triangles, 12 boundary edges".
  std::string summary() const;
};

Topology buildTopology(const TriangleMesh& mesh);

}  // namespace ws::mesh
