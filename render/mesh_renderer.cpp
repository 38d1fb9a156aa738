#include "render/mesh_renderer.h"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>

#include "render/colormap.h"
#include "render/gl/gl_check.h"
#include "render/shaders.h"

namespace ws::render {

namespace {

// Storage buffer bindings, as the shaders declare them.
constexpr GLuint kCorners = 0, kPositions = 1, kValues = 2, kStart = 3;

}  // namespace

MeshRenderer::MeshRenderer(std::shared_ptr<InteropLink> link)
    : program_(gl::compileProgram("mesh", shaderSource("mesh.vert"), shaderSource("mesh.frag"))),
      pathProgram_(
          gl::compileProgram("paths", shaderSource("paths.vert"), shaderSource("paths.frag"))),
      vertexArray_(gl::makeVertexArray()),
      corners_(gl::makeBuffer()),
      start_(gl::makeBuffer()),
      positions_(link, GL_SHADER_STORAGE_BUFFER),
      values_(link, GL_SHADER_STORAGE_BUFFER),
      colormap_(gl::makeTexture()) {}

MeshRenderer::~MeshRenderer() = default;

void MeshRenderer::upload(MeshSource& source, const MeshScene& scene) {
  if (scene.revision == revision_) return;  // revisions are unique across modules
  std::vector<std::uint32_t> corners;
  std::vector<float> start;
  source.meshTopology(corners, start);
  gl::fillStorageBuffer(corners_.get(), corners.data(), corners.size() * sizeof(std::uint32_t));
  gl::fillStorageBuffer(start_.get(), start.data(), start.size() * sizeof(float));
  revision_ = scene.revision;
}

void MeshRenderer::uploadColormap(const std::string& name) {
  if (name == colormapName_) return;
  fillColormapTexture(colormap_.get(), name);
  colormapName_ = name;
}

void MeshRenderer::draw(MeshSource& source, Backend writer, const MeshScene& scene,
                        const OrbitCamera& camera, int viewportWidth, int viewportHeight,
                        const std::string& colormap) {
  if (viewportWidth <= 0 || viewportHeight <= 0 || scene.triangles == 0) return;
  upload(source, scene);
  const bool perTriangle = scene.values == MeshScene::Values::PerTriangle;
  const std::size_t valueCount = perTriangle ? scene.triangles : scene.vertices;
  // Both reserved before either is written: a failed registration sends both through the host.
  positions_.reserve(3 * scene.vertices * sizeof(float));
  values_.reserve(valueCount * sizeof(float));
  SharedBuffer::Writing positions = positions_.write(3 * scene.vertices * sizeof(float), writer);
  SharedBuffer::Writing values = values_.write(valueCount * sizeof(float), writer);
  MeshImage image{positions.as<float>(), values.as<float>(), scene.vertices, valueCount,
                  positions.onDevice()};
  source.renderMesh(image);
  positions.finish();
  values.finish();

  const glm::mat4 viewProjection = camera.viewProjection(viewportWidth, viewportHeight);
  const glm::vec3 light = glm::normalize(camera.eye() - camera.centre + glm::vec3(-1, 2, 0));
  WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kCorners, corners_.get()));
  WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kPositions, positions_.get()));
  WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kValues, values_.get()));
  WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kStart, start_.get()));
  const GLuint program = program_.get();
  WS_GL_CHECK(glUseProgram(program));
  const int mode = perTriangle ? 0 : scene.values == MeshScene::Values::PerVertex ? 1 : 2;
  float palette[3 * 12];
  for (int k = 0; k < 12; ++k)
    for (int c = 0; c < 3; ++c)
      palette[3 * k + c] = float(kCategoryColours[k] >> (16 - 8 * c) & 0xff) / 255;
  if (scene.categories == 0) uploadColormap(colormap);
  WS_GL_CHECK(glActiveTexture(GL_TEXTURE0));
  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, colormap_.get()));
  glUniform1i(glGetUniformLocation(program, "colormap"), 0);
  glUniformMatrix4fv(glGetUniformLocation(program, "viewProjection"), 1, GL_FALSE,
                     glm::value_ptr(viewProjection));
  glUniform1i(glGetUniformLocation(program, "valueMode"), mode);
  glUniform1f(glGetUniformLocation(program, "minValue"), scene.value.minValue);
  glUniform1f(glGetUniformLocation(program, "maxValue"), scene.value.maxValue);
  glUniform1i(glGetUniformLocation(program, "categories"), scene.categories);
  glUniform3fv(glGetUniformLocation(program, "palette"), 12, palette);
  glUniform3fv(glGetUniformLocation(program, "lightDirection"), 1, glm::value_ptr(light));
  glUniform1i(glGetUniformLocation(program, "wireframe"), scene.wireframe ? 1 : 0);
  WS_GL_CHECK(glEnable(GL_DEPTH_TEST));
  WS_GL_CHECK(glEnable(GL_POLYGON_OFFSET_FILL));
  WS_GL_CHECK(glPolygonOffset(1, 1));  // the paths win where they lie on the surface
  WS_GL_CHECK(glBindVertexArray(vertexArray_.get()));
  WS_GL_CHECK(glDrawArrays(GL_TRIANGLES, 0, GLsizei(3 * scene.triangles)));
  WS_GL_CHECK(glDisable(GL_POLYGON_OFFSET_FILL));
  if (scene.paths) {
    WS_GL_CHECK(glUseProgram(pathProgram_.get()));
    glUniformMatrix4fv(glGetUniformLocation(pathProgram_.get(), "viewProjection"), 1, GL_FALSE,
                       glm::value_ptr(viewProjection));
    WS_GL_CHECK(glDrawArrays(GL_LINES, 0, GLsizei(2 * scene.vertices)));
  }
  WS_GL_CHECK(glDisable(GL_DEPTH_TEST));
  WS_GL_CHECK(glBindVertexArray(0));
  lines_.draw(scene.lines, viewProjection);  // they show through the mesh
}

}  // namespace ws::render
