#pragma once
// Draws points over a 2-D field (LBM's tracers) through the field's camera: the source writes
// them into a shared buffer (through interop on the CUDA backend), drawn as blended GL points.
#include <memory>

#include "compute/core/backend.h"
#include "compute/views/field.h"
#include "compute/views/points.h"
#include "render/gl/objects.h"
#include "render/shared_buffer.h"

namespace ws::render {

class PointRenderer {
 public:
  explicit PointRenderer(std::shared_ptr<InteropLink> link);  // needs a current GL 4.3 context
  ~PointRenderer();

  // `view`: the part of the world the viewport shows (the field's request).
  void draw(PointSource& source, Backend writer, const FieldRequest& view);

 private:
  gl::Program program_;
  gl::VertexArray vertexArray_;
  SharedBuffer points_;
};

}  // namespace ws::render
