#include "render/surface_renderer.h"

#include <vector>

#include <glm/gtc/type_ptr.hpp>

#include "render/colormap.h"
#include "render/gl/gl_check.h"
#include "render/shaders.h"

namespace ws::render {

namespace {

constexpr GLuint kVertices = 0;  // the storage buffer binding surface.vert declares
constexpr GLuint kSegments = 6;  // and streamlines.vert's
constexpr std::size_t kTriangleBytes = 3 * kSurfaceVertexFloats * sizeof(float);
constexpr std::size_t kSegmentBytes = 2 * kLineVertexFloats * sizeof(float);
constexpr float kFixedColour[3] = {0.62f, 0.62f, 0.66f};

}  // namespace

SurfaceRenderer::SurfaceRenderer(std::shared_ptr<InteropLink> link)
    : program_(gl::compileProgram("surface", shaderSource("surface.vert"),
                                  shaderSource("surface.frag"))),
      lineProgram_(gl::compileProgram("streamlines", shaderSource("streamlines.vert"),
                                      shaderSource("streamlines.frag"))),
      vertexArray_(gl::makeVertexArray()),
      fixed_(gl::makeBuffer()),
      extracted_(link, GL_SHADER_STORAGE_BUFFER),
      segments_(std::move(link), GL_SHADER_STORAGE_BUFFER),
      colormap_(gl::makeTexture()) {}

void SurfaceRenderer::draw(SurfaceSource& source, Backend writer, const SurfaceScene& scene,
                           const OrbitCamera& camera, int viewportWidth, int viewportHeight,
                           const std::string& colormap) {
  if (viewportWidth <= 0 || viewportHeight <= 0) return;
  if (scene.revision != revision_) {  // revisions are unique across modules
    std::vector<float> vertices;
    source.fixedSurface(vertices);
    gl::fillStorageBuffer(fixed_.get(), vertices.data(), vertices.size() * sizeof(float));
    fixedTriangles_ = vertices.size() * sizeof(float) / kTriangleBytes;
    revision_ = scene.revision;
  }
  // Room to grow by half again, so that a surface that grows a little each frame is not
  // re-registered with CUDA every frame.
  const std::size_t triangles = source.surfaceTriangles(), segments = source.surfaceSegments();
  extracted_.reserve(triangles * kTriangleBytes, triangles * kTriangleBytes / 2);
  SharedBuffer::Writing surface = extracted_.write(triangles * kTriangleBytes, writer);
  SharedBuffer::Writing lines = segments_.write(segments * kSegmentBytes, writer);
  SurfaceImage image{surface.as<float>(), triangles, surface.onDevice(),
                     lines.as<float>(),   segments,  lines.onDevice()};
  source.renderSurface(image);
  surface.finish();
  lines.finish();

  if (colormap != colormapName_) {
    fillColormapTexture(colormap_.get(), colormap);
    colormapName_ = colormap;
  }
  const glm::mat4 viewProjection = camera.viewProjection(viewportWidth, viewportHeight);
  const glm::vec3 light = glm::normalize(camera.eye() - camera.centre + glm::vec3(-1, 2, 0));
  const GLuint program = program_.get();
  WS_GL_CHECK(glUseProgram(program));
  WS_GL_CHECK(glActiveTexture(GL_TEXTURE0));
  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, colormap_.get()));
  glUniform1i(glGetUniformLocation(program, "colormap"), 0);
  glUniformMatrix4fv(glGetUniformLocation(program, "viewProjection"), 1, GL_FALSE,
                     glm::value_ptr(viewProjection));
  glUniform1f(glGetUniformLocation(program, "minValue"), scene.value.minValue);
  glUniform1f(glGetUniformLocation(program, "maxValue"), scene.value.maxValue);
  glUniform3fv(glGetUniformLocation(program, "colour"), 1, kFixedColour);
  glUniform3fv(glGetUniformLocation(program, "lightDirection"), 1, glm::value_ptr(light));
  WS_GL_CHECK(glEnable(GL_DEPTH_TEST));
  WS_GL_CHECK(glBindVertexArray(vertexArray_.get()));
  glUniform1i(glGetUniformLocation(program, "oneColour"), 1);
  drawTriangles(fixed_.get(), fixedTriangles_);
  glUniform1i(glGetUniformLocation(program, "oneColour"), 0);
  drawTriangles(extracted_.get(), triangles);
  if (segments > 0) {
    const GLuint lineProgram = lineProgram_.get();
    WS_GL_CHECK(glUseProgram(lineProgram));
    glUniform1i(glGetUniformLocation(lineProgram, "colormap"), 0);
    glUniformMatrix4fv(glGetUniformLocation(lineProgram, "viewProjection"), 1, GL_FALSE,
                       glm::value_ptr(viewProjection));
    glUniform1f(glGetUniformLocation(lineProgram, "minValue"), scene.value.minValue);
    glUniform1f(glGetUniformLocation(lineProgram, "maxValue"), scene.value.maxValue);
    WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kSegments, segments_.get()));
    WS_GL_CHECK(glDrawArrays(GL_LINES, 0, GLsizei(2 * segments)));
  }
  WS_GL_CHECK(glBindVertexArray(0));
  WS_GL_CHECK(glDisable(GL_DEPTH_TEST));
  sceneLines_.draw(scene.lines, viewProjection);
}

void SurfaceRenderer::drawTriangles(GLuint vertices, std::size_t triangles) {
  if (triangles == 0) return;
  WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kVertices, vertices));
  WS_GL_CHECK(glDrawArrays(GL_TRIANGLES, 0, GLsizei(3 * triangles)));
}

}  // namespace ws::render
