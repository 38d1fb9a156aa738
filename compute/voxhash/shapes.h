#pragma once
// Procedural models as point clouds on their surfaces: sphere, torus, torus knot and box, sampled
// about `spacing` apart, so that a voxel size of at least twice the spacing gives a closed shell.
#include <string>
#include <vector>

namespace ws::voxhash {

struct Point {
  float x, y, z;
};

enum class Shape { Sphere, Torus, TorusKnot, Box };

// Parses "sphere", "torus", "torus-knot", "box"; throws InputError otherwise.
Shape parseShape(const std::string& name);

// Points on the surface of a shape of radius (half-extent) `size` centred on the origin, about
// `spacing` apart. Throws InputError when spacing is not positive or the cloud would pass
// `maxPoints`.
std::vector<Point> sampleShape(Shape shape, float size, float spacing,
                               std::size_t maxPoints = std::size_t(1) << 26);

// The points moved: scaled by `scale` about the origin, then shifted by `offset`.
std::vector<Point> placed(const std::vector<Point>& points, float scale, const float offset[3]);

}  // namespace ws::voxhash
