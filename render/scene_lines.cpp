#include "render/scene_lines.h"

#include <glm/gtc/type_ptr.hpp>

#include "render/gl/gl_check.h"
#include "render/shaders.h"

namespace ws::render {

namespace {

constexpr GLuint kPoints = 4;  // the storage buffer binding lines.vert declares

}  // namespace

SceneLineRenderer::SceneLineRenderer()
    : program_(gl::compileProgram("lines", shaderSource("lines.vert"), shaderSource("lines.frag"))),
      vertexArray_(gl::makeVertexArray()),
      points_(gl::makeBuffer()) {}

void SceneLineRenderer::draw(const std::vector<SceneLines>& lines,
                             const glm::mat4& viewProjection) {
  if (lines.empty()) return;
  const GLuint program = program_.get();
  WS_GL_CHECK(glDisable(GL_DEPTH_TEST));
  WS_GL_CHECK(glUseProgram(program));
  WS_GL_CHECK(glBindVertexArray(vertexArray_.get()));
  glUniformMatrix4fv(glGetUniformLocation(program, "viewProjection"), 1, GL_FALSE,
                     glm::value_ptr(viewProjection));
  for (const SceneLines& batch : lines) {
    if (batch.points.empty()) continue;
    gl::fillStorageBuffer(points_.get(), batch.points.data(), batch.points.size() * sizeof(float),
                          GL_STREAM_DRAW);
    WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kPoints, points_.get()));
    glUniform3fv(glGetUniformLocation(program, "colour"), 1, batch.colour);
    WS_GL_CHECK(glDrawArrays(GL_LINES, 0, GLsizei(batch.points.size() / 3)));
  }
  WS_GL_CHECK(glBindVertexArray(0));
}

}  // namespace ws::render
