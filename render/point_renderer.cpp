#include "render/point_renderer.h"

#include "render/gl/gl_check.h"
#include "render/shaders.h"

namespace ws::render {

namespace {
constexpr float kPointSize = 3;  // pixels
}  // namespace

PointRenderer::PointRenderer(std::shared_ptr<InteropLink> link)
    : program_(
          gl::compileProgram("points", shaderSource("points.vert"), shaderSource("points.frag"))),
      vertexArray_(gl::makeVertexArray()),
      points_(std::move(link), GL_ARRAY_BUFFER) {
  WS_GL_CHECK(glBindVertexArray(vertexArray_.get()));
  WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, points_.get()));
  WS_GL_CHECK(glEnableVertexAttribArray(0));
  WS_GL_CHECK(glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), nullptr));
  WS_GL_CHECK(glBindVertexArray(0));
  WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
}

PointRenderer::~PointRenderer() = default;

void PointRenderer::draw(PointSource& source, Backend writer, const FieldRequest& view) {
  const std::size_t count = source.pointCount();
  if (count == 0) return;
  SharedBuffer::Writing points = points_.write(3 * count * sizeof(float), writer);
  PointImage image{points.as<float>(), count, points.onDevice()};
  source.renderPoints(image);
  points.finish();
  const GLuint program = program_.get();
  WS_GL_CHECK(glUseProgram(program));
  glUniform2f(glGetUniformLocation(program, "origin"), float(view.originX), float(view.originY));
  glUniform1f(glGetUniformLocation(program, "worldPerPixel"), float(view.worldPerPixel));
  glUniform2f(glGetUniformLocation(program, "viewport"), float(view.width), float(view.height));
  glUniform1f(glGetUniformLocation(program, "pointSize"), kPointSize);
  WS_GL_CHECK(glEnable(GL_PROGRAM_POINT_SIZE));
  WS_GL_CHECK(glEnable(GL_BLEND));
  WS_GL_CHECK(glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
  WS_GL_CHECK(glBindVertexArray(vertexArray_.get()));
  WS_GL_CHECK(glDrawArrays(GL_POINTS, 0, GLsizei(count)));
  WS_GL_CHECK(glBindVertexArray(0));
  WS_GL_CHECK(glDisable(GL_BLEND));
}

}  // namespace ws::render
