#pragma once
// The intersection scene of the chapter's Figure 4.1: two models, each a point cloud on its
// surface, moving along a path and optionally deforming. A model's pose at a time is computed once
// per frame on the host; every point is then moved by animate(), shared by the CPU and the GPU and
// written with explicit fused multiply-adds (no contraction left to either compiler), so that both
// put each point in the same voxel.
#include <cmath>
#include <string>

#include "compute/core/hd.h"
#include "compute/voxhash/shapes.h"
#include "compute/voxhash/voxels.h"

namespace ws::voxhash {

enum class Path { Orbit, PassThrough, Collide };
enum class Deformation { None, Breathing, Twist };

// "orbit", "pass-through", "collide"; "none", "breathing", "twist". Throw InputError otherwise.
Path parsePath(const std::string& name);
Deformation parseDeformation(const std::string& name);

// The scene is the cube [-kSceneExtent, kSceneExtent]^3; model A has radius 1, model B 0.6 unless
// the user chooses otherwise.
constexpr float kSceneExtent = 2.0f;
constexpr float kSizeA = 1.0f, kDefaultSizeB = 0.6f;

// The grid of `side` cells per axis over the scene cube.
VoxelGrid sceneGrid(int side);

// Model space to scene: a twist about the model's y axis (twist radians per unit of y), then a
// uniform scale, a rotation (row-major 3x3) and an offset.
struct ModelPose {
  float twist = 0;
  float scale = 1;
  float rotation[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  float offset[3] = {0, 0, 0};
};

// The poses of A and B `time` seconds into the animation, B of radius sizeB (both clouds sampled
// at radius kSizeA).
void scenePoses(Path path, Deformation deformation, double time, float sizeB, ModelPose& a,
                ModelPose& b);

WS_HD float fusedMultiplyAdd(float a, float b, float c) {
#ifdef __CUDA_ARCH__
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

// sin and cos by Taylor polynomials to degree 11 and 12: within 1e-7 for angles up to 1.5 (the
// twists here stay below 1.2). The same operations on both sides, unlike sinf and cosf.
WS_HD void sinCos(float angle, float& s, float& c) {
  const float a2 = angle * angle;
  float ps = -1.0f / 39916800, pc = 1.0f / 479001600;
  ps = fusedMultiplyAdd(ps, a2, 1.0f / 362880);
  pc = fusedMultiplyAdd(pc, a2, -1.0f / 3628800);
  ps = fusedMultiplyAdd(ps, a2, -1.0f / 5040);
  pc = fusedMultiplyAdd(pc, a2, 1.0f / 40320);
  ps = fusedMultiplyAdd(ps, a2, 1.0f / 120);
  pc = fusedMultiplyAdd(pc, a2, -1.0f / 720);
  ps = fusedMultiplyAdd(ps, a2, -1.0f / 6);
  pc = fusedMultiplyAdd(pc, a2, 1.0f / 24);
  ps = fusedMultiplyAdd(ps, a2, 1.0f);
  pc = fusedMultiplyAdd(pc, a2, -0.5f);
  s = ps * angle;
  c = fusedMultiplyAdd(pc, a2, 1.0f);
}

WS_HD Point animate(const Point& p, const ModelPose& pose) {
  float x = p.x, z = p.z;
  if (pose.twist != 0) {
    float s, c;
    sinCos(pose.twist * p.y, s, c);
    const float sz = s * z, sx = s * x;
    x = fusedMultiplyAdd(c, p.x, sz);
    z = fusedMultiplyAdd(c, p.z, -sx);
  }
  x *= pose.scale;
  const float y = p.y * pose.scale;
  z *= pose.scale;
  const float* r = pose.rotation;
  auto row = [&](int i) {
    return fusedMultiplyAdd(
        r[3 * i], x,
        fusedMultiplyAdd(r[3 * i + 1], y, fusedMultiplyAdd(r[3 * i + 2], z, pose.offset[i])));
  };
  return {row(0), row(1), row(2)};
}

}  // namespace ws::voxhash
