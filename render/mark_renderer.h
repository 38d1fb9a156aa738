#pragma once
// Draws a module's marks (compute/views/marks.h) over a 2-D field through the field's camera: each
// segment a few pixels wide over a dark rim, whatever the zoom.
#include "compute/views/field.h"
#include "compute/views/marks.h"
#include "render/gl/objects.h"

namespace ws::render {

class MarkRenderer {
 public:
  MarkRenderer();  // needs a current GL 4.3 context
  // `view`: the part of the world the viewport shows (the field's request); `width` in pixels.
  void draw(const std::vector<Mark>& marks, const FieldRequest& view, float width);

 private:
  gl::Program program_;
  gl::VertexArray vertexArray_;
  gl::Buffer segments_;
};

}  // namespace ws::render
