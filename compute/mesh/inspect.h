#pragma once
// The vertex inspector: picking a vertex with a ray, and one vertex's next move laid open (the
// tangent disk its search keeps to, each Nelder-Mead simplex, the place tried and the guards'
// verdict; while the mesh untangles, the untangling search's, and why its triangles are
// inverted), run on the host with the same code as a pass.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compute/core/module.h"
#include "compute/mesh/optimize.h"
#include "compute/mesh/surface_grid.h"
#include "compute/views/mesh.h"

namespace ws::mesh {

// The vertex nearest to where the ray from `origin` along `direction` first meets the mesh
// (`positions`, three `corners` per triangle), or none when it misses.
std::optional<std::uint32_t> pickVertex(const std::vector<Vec3>& positions,
                                        const std::vector<std::uint32_t>& corners, Vec3 origin,
                                        Vec3 direction);

struct Inspection {
  std::uint32_t vertex = 0;
  int triangles = 0;  // around the vertex
  bool locked = false;
  // The disk the search keeps to, in mesh coordinates: centre, unit normal and axes, radius (for
  // the smoothing variants, the length of their step).
  Vec3 centre{}, normal{}, e1{}, e2{};
  float radius = 0;
  std::vector<std::array<Vec3, 3>> simplices;  // each Nelder-Mead iteration's, best first
  VertexMove move{};                           // what a pass would do to it now
  // Its inverted triangles, and the largest angle between one's normal and its reference normal
  // (radians; past pi/2 it faces against the surface around it).
  int inverted = 0;
  float worstTurn = 0;
};

// Vertex v's next move under `params` as a pass would make it (projected onto `original` when
// given), with what the search did on the way. `m` needs the current positions of v and its
// neighbours only.
Inspection inspectVertex(const MeshView& m, std::uint32_t v, bool locked,
                         const OptimizeParams& params, const SurfaceGrid* original);

// The inspection drawn over the mesh: the tangent disk and its normal (half an `edge` long), each
// Nelder-Mead simplex, and the step to the place tried (in kRefusedColour when the guards refuse
// it).
constexpr float kDiskColour[3] = {1.0f, 0.35f, 0.85f}, kSearchColour[3] = {0.3f, 0.9f, 1.0f},
                kStepColour[3] = {0.3f, 1.0f, 0.4f}, kRefusedColour[3] = {1.0f, 0.25f, 0.2f};
std::vector<SceneLines> inspectorLines(const Inspection& inspection, float edge);

// The inspection in a few lines of text (angles in degrees).
std::string describe(const Inspection& inspection, const OptimizeParams& params);

}  // namespace ws::mesh
