#include "compute/voxhash/scene.h"

#include "compute/core/errors.h"

namespace ws::voxhash {

Path parsePath(const std::string& name) {
  if (name == "orbit") return Path::Orbit;
  if (name == "pass-through") return Path::PassThrough;
  if (name == "collide") return Path::Collide;
  throw InputError("unknown path '" + name + "' (orbit, pass-through or collide)");
}

Deformation parseDeformation(const std::string& name) {
  if (name == "none") return Deformation::None;
  if (name == "breathing") return Deformation::Breathing;
  if (name == "twist") return Deformation::Twist;
  throw InputError("unknown deformation '" + name + "' (none, breathing or twist)");
}

VoxelGrid sceneGrid(int side) {
  VoxelGrid grid;
  grid.side = side;
  grid.voxel = 2 * kSceneExtent / float(side);
  for (float& o : grid.origin) o = -kSceneExtent;
  return grid;
}

namespace {

// A rotation by `angle` about the axis (x, y, z) of unit length, row-major.
void rotation(double angle, double x, double y, double z, float r[9]) {
  const double c = std::cos(angle), s = std::sin(angle), t = 1 - c;
  const double m[9] = {t * x * x + c,     t * x * y - s * z, t * x * z + s * y,
                       t * x * y + s * z, t * y * y + c,     t * y * z - s * x,
                       t * x * z - s * y, t * y * z + s * x, t * z * z + c};
  for (int i = 0; i < 9; ++i) r[i] = float(m[i]);
}

}  // namespace

void scenePoses(Path path, Deformation deformation, double time, float sizeB, ModelPose& a,
                ModelPose& b) {
  a = ModelPose{};
  b = ModelPose{};
  // Both spin slowly, about different axes, so that their voxels change every frame.
  rotation(0.3 * time, 0, 1, 0, a.rotation);
  rotation(-0.5 * time, 0.6, 0, 0.8, b.rotation);
  b.scale = sizeB / kSizeA;
  switch (path) {
    case Path::Orbit:  // B circles A, half in and half out of its surface
      b.offset[0] = float(std::cos(0.5 * time));
      b.offset[2] = float(std::sin(0.5 * time));
      b.offset[1] = float(0.2 * std::sin(time));
      break;
    case Path::PassThrough:  // B goes right through A and out the other side, and back
      b.offset[0] = float(1.7 * std::sin(0.4 * time));
      b.offset[1] = 0.1f;
      break;
    case Path::Collide: {  // A and B meet in the middle, overlap, and part
      const double gap = 0.45 + 0.55 * std::cos(0.6 * time);
      a.offset[0] = float(-gap * 0.7);
      b.offset[0] = float(gap * 1.2);
      break;
    }
  }
  switch (deformation) {
    case Deformation::None:
      break;
    case Deformation::Breathing:
      a.scale *= float(1 + 0.12 * std::sin(2 * time));
      b.scale *= float(1 - 0.12 * std::sin(2 * time + 1));
      break;
    case Deformation::Twist:
      a.twist = float(0.9 * std::sin(0.8 * time));
      b.twist = float(-1.2 * std::sin(0.8 * time));
      break;
  }
}

}  // namespace ws::voxhash
