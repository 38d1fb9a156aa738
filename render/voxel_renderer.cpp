#include "render/voxel_renderer.h"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>

#include "render/gl/gl_check.h"
#include "render/shaders.h"

namespace ws::render {

namespace {
constexpr int kStripVertices = 14;  // a cube as one triangle strip
constexpr int kMaxClasses = 8;      // the shader's colour table
}  // namespace

VoxelRenderer::VoxelRenderer(std::shared_ptr<InteropLink> link)
    : program_(
          gl::compileProgram("voxels", shaderSource("voxels.vert"), shaderSource("voxels.frag"))),
      vertexArray_(gl::makeVertexArray()),
      voxels_(std::move(link), GL_ARRAY_BUFFER) {
  WS_GL_CHECK(glBindVertexArray(vertexArray_.get()));
  WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, voxels_.get()));
  WS_GL_CHECK(glEnableVertexAttribArray(0));
  WS_GL_CHECK(glVertexAttribIPointer(0, 2, GL_UNSIGNED_INT, 2 * sizeof(unsigned), nullptr));
  WS_GL_CHECK(glVertexAttribDivisor(0, 1));
  WS_GL_CHECK(glBindVertexArray(0));
  WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
}

VoxelRenderer::~VoxelRenderer() = default;

void VoxelRenderer::draw(VoxelSource& source, Backend writer, const VoxelScene& scene,
                         const OrbitCamera& camera, int viewportWidth, int viewportHeight) {
  const std::size_t count = source.voxelCount();
  if (viewportWidth <= 0 || viewportHeight <= 0 || count == 0) return;
  const std::size_t bytes = count * 2 * sizeof(unsigned);
  voxels_.reserve(bytes, bytes / 2);  // room to grow as the models move
  SharedBuffer::Writing voxels = voxels_.write(bytes, writer);
  VoxelImage image{voxels.as<unsigned>(), count, voxels.onDevice()};
  source.renderVoxels(image);
  voxels.finish();

  float colours[3 * kMaxClasses] = {};
  for (std::size_t c = 0; c < std::min<std::size_t>(scene.classColours.size(), kMaxClasses); ++c)
    std::copy(scene.classColours[c].begin(), scene.classColours[c].end(), colours + 3 * c);
  const glm::mat4 viewProjection = camera.viewProjection(viewportWidth, viewportHeight);
  const glm::vec3 light = glm::normalize(camera.eye() - camera.centre + glm::vec3(-1, 2, 0));
  const GLuint program = program_.get();
  WS_GL_CHECK(glUseProgram(program));
  glUniformMatrix4fv(glGetUniformLocation(program, "viewProjection"), 1, GL_FALSE,
                     glm::value_ptr(viewProjection));
  glUniform3fv(glGetUniformLocation(program, "origin"), 1, scene.origin);
  glUniform1f(glGetUniformLocation(program, "voxelSize"), scene.voxel);
  glUniform1ui(glGetUniformLocation(program, "visibleClasses"), scene.visibleClasses);
  glUniform3fv(glGetUniformLocation(program, "classColours"), kMaxClasses, colours);
  glUniform3fv(glGetUniformLocation(program, "lightDirection"), 1, glm::value_ptr(light));
  WS_GL_CHECK(glEnable(GL_DEPTH_TEST));
  WS_GL_CHECK(glBindVertexArray(vertexArray_.get()));
  WS_GL_CHECK(glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, kStripVertices, GLsizei(count)));
  WS_GL_CHECK(glBindVertexArray(0));
  WS_GL_CHECK(glDisable(GL_DEPTH_TEST));
}

}  // namespace ws::render
