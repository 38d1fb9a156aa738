#pragma once
// The voxel view: voxels on a grid in 3-D (the voxel hash module's models), drawn as instanced
// boxes coloured by class.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// Two 32-bit words per voxel, its packed grid coordinates (10 bits per axis) and its class. On the
// CUDA backend `data` may be a device pointer (an interop-mapped GL buffer).
struct VoxelImage {
  unsigned* data = nullptr;
  std::size_t count = 0;
  bool onDevice = false;
};

struct VoxelScene {
  float origin[3] = {0, 0, 0};  // world position of the grid's corner cell's corner
  float voxel = 1;              // a cell's edge length
  float extent = 1;             // the scene's half-width around its centre, for the camera
  std::vector<std::string> classNames;
  std::vector<std::array<float, 3>> classColours;  // RGB in [0, 1], by class
  unsigned visibleClasses = ~0u;                   // bit c set: class c is drawn
};

// What a module that shows voxels offers.
class VoxelSource {
 public:
  virtual ~VoxelSource() = default;
  // The scene while the module shows its voxels (none while it shows something else).
  virtual std::optional<VoxelScene> voxelScene() const = 0;
  // The voxels to draw, and writing exactly that many into `voxels`.
  virtual std::size_t voxelCount() const = 0;
  virtual void renderVoxels(VoxelImage& voxels) = 0;
};

}  // namespace ws
