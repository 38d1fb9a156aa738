#pragma once
// How a module's 2-D field is sampled into an image for display, and the points drawn over it.
// Light on purpose: CUDA kernels include it.
#include <cstddef>

namespace ws {

// Which part of the world to sample into the image: pixel (i, j) covers world
// [originX + i*worldPerPixel, +worldPerPixel) x [originY + j*worldPerPixel, +worldPerPixel).
struct FieldRequest {
  double originX = 0, originY = 0;
  double worldPerPixel = 1;
  int width = 0, height = 0;
};

// Where the image goes: one float per pixel, row-major, top row first; NaN marks "outside the
// world". On the CUDA backend `pixels` may be a device pointer (an interop-mapped GL buffer).
struct FieldImage {
  float* pixels = nullptr;
  int width = 0, height = 0;
  bool onDevice = false;
};

// Points drawn over the field (LBM tracer particles): three floats per point, world x, world y
// and an opacity in [0, 1]. On the CUDA backend `data` may be a device pointer (an
// interop-mapped GL buffer).
struct PointImage {
  float* data = nullptr;
  std::size_t count = 0;
  bool onDevice = false;
};

// Voxels to draw in 3-D (the voxel hash module's models): two 32-bit words per voxel, its packed
// grid coordinates (10 bits per axis) and its class. On the CUDA backend `data` may be a device
// pointer (an interop-mapped GL buffer).
struct VoxelImage {
  unsigned* data = nullptr;
  std::size_t count = 0;
  bool onDevice = false;
};

// A triangle mesh's moving part (the mesh module): three floats per vertex, its position, then
// one float per vertex or per triangle (as the MeshScene says), the value the colour map shows.
// On the CUDA backend both may be device pointers (into an interop-mapped GL buffer).
struct MeshImage {
  float* positions = nullptr;
  float* values = nullptr;
  std::size_t vertices = 0, valueCount = 0;
  bool onDevice = false;
};

// A graph drawn in the plane (the graph module): four floats per node, its world x and y, its
// radius in world units and the value its colour shows; two per edge, the value its colour and
// width show (0 to 1) and its opacity. On the CUDA backend both may be device pointers (into
// interop-mapped GL buffers).
struct GraphImage {
  float* nodes = nullptr;
  float* edges = nullptr;
  std::size_t nodeCount = 0, edgeCount = 0;
  bool onDevice = false;
};

}  // namespace ws
