#pragma once
// Scenes for the intersection pipeline tests: model poses placed at random in the scene, and a
// pipeline run on the CPU or the GPU, read back as keys and classes.
#include <random>

#include "compute/voxhash/pipeline.h"

namespace ws::voxhash::test {

struct FrameResult {
  std::vector<std::uint32_t> keys;
  std::vector<std::uint8_t> classes;
  FrameReport report;
};

inline FrameResult runFrame(IntersectionPipeline& pipeline, const std::vector<Point>& a,
                            const std::vector<Point>& b, const FramePoses& poses,
                            const VoxelGrid& grid, LookupStructure structure) {
  pipeline.setClouds(a, b);
  pipeline.frames({poses}, grid, structure, CuckooParams{});
  FrameResult r;
  pipeline.result(r.keys, r.classes);
  r.report = pipeline.report();
  return r;
}

// Random poses: each model turned about a random axis, twisted or scaled, and placed so that the
// two usually overlap.
inline FramePoses randomPoses(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1, 1);
  FramePoses f;
  scenePoses(Path(rng() % 3), Deformation(rng() % 3), 20 * (unit(rng) + 1), kDefaultSizeB, f.a,
             f.b);
  f.seed = rng();
  return f;
}

}  // namespace ws::voxhash::test
