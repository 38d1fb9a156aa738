#include "render/mark_renderer.h"

#include "render/gl/gl_check.h"
#include "render/shaders.h"

namespace ws::render {

namespace {
constexpr GLuint kSegments = 5;  // the shader's storage binding
constexpr float kRim = 2;        // pixels of dark rim around a mark
}  // namespace

MarkRenderer::MarkRenderer()
    : program_(gl::compileProgram("marks", shaderSource("marks.vert"), shaderSource("marks.frag"))),
      vertexArray_(gl::makeVertexArray()),
      segments_(gl::makeBuffer()) {}

void MarkRenderer::draw(const std::vector<Mark>& marks, const FieldRequest& view, float width) {
  if (marks.empty()) return;
  std::vector<float> packed;
  packed.reserve(marks.size() * 8);
  for (const Mark& m : marks)
    packed.insert(packed.end(),
                  {m.x0, m.y0, m.x1, m.y1, m.rgb[0], m.rgb[1], m.rgb[2], m.worldWidth});
  gl::fillStorageBuffer(segments_.get(), packed.data(), packed.size() * sizeof(float),
                        GL_STREAM_DRAW);
  const GLuint program = program_.get();
  WS_GL_CHECK(glUseProgram(program));
  glUniform2f(glGetUniformLocation(program, "origin"), float(view.originX), float(view.originY));
  glUniform1f(glGetUniformLocation(program, "worldPerPixel"), float(view.worldPerPixel));
  glUniform2f(glGetUniformLocation(program, "viewport"), float(view.width), float(view.height));
  WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kSegments, segments_.get()));
  WS_GL_CHECK(glBindVertexArray(vertexArray_.get()));
  glUniform1f(glGetUniformLocation(program, "width"), width);
  glUniform1f(glGetUniformLocation(program, "rim"), kRim);
  for (const bool outline : {true, false}) {
    glUniform1i(glGetUniformLocation(program, "outline"), outline);
    WS_GL_CHECK(glDrawArraysInstanced(GL_TRIANGLES, 0, 6, GLsizei(marks.size())));
  }
  WS_GL_CHECK(glBindVertexArray(0));
}

}  // namespace ws::render
