#pragma once
// Models as point clouds on their surfaces: procedural shapes (sphere, torus, torus knot, box) and
// triangle meshes, sampled about `spacing` apart, so that a voxel size of at least twice the
// spacing gives a closed shell.
#include <string>
#include <vector>

#include "compute/io/mesh_io.h"

namespace ws::voxhash {

struct Point {
  float x, y, z;
  bool operator==(const Point&) const = default;
};

enum class Shape { Sphere, Torus, TorusKnot, Box };

// Parses "sphere", "torus", "torus-knot", "box"; throws InputError otherwise.
Shape parseShape(const std::string& name);

// Points on the surface of a shape of radius (half-extent) `size` centred on the origin, about
// `spacing` apart. Throws InputError when spacing is not positive or the cloud would pass
// `maxPoints`.
std::vector<Point> sampleShape(Shape shape, float size, float spacing,
                               std::size_t maxPoints = std::size_t(1) << 26);

// Points on a triangle mesh's surface, spacing at most `spacing` apart along each triangle's
// edges (a lattice per triangle), the mesh first centred on its bounding box and scaled so that
// its farthest vertex lies `size` from the centre. Throws InputError past `maxPoints`.
std::vector<Point> sampleMesh(const io::TriangleMesh& mesh, float size, float spacing,
                              std::size_t maxPoints = std::size_t(1) << 26);

// A model by name: a procedural shape (parseShape's names), a shipped mesh (assets/meshes, by
// its name without extension) or a mesh file's path, sampled as above. Throws InputError (an
// unknown name, an unreadable or malformed file). The last few clouds sampled from mesh files are
// kept, each with its file's size and time of change: asked again for one of them (a parameter
// change that leaves the models as they were), it is not read and sampled again.
std::vector<Point> sampleModel(const std::string& model, float size, float spacing);
// Whether `model` names a shape, a shipped mesh (io::shippedMeshes) or a mesh file ("" when it
// does, else why not), without reading the file.
std::string checkModelName(const std::string& model);

// The points moved: scaled by `scale` about the origin, then shifted by `offset`.
std::vector<Point> placed(const std::vector<Point>& points, float scale, const float offset[3]);

}  // namespace ws::voxhash
