#include "render/mesh_renderer.h"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>

#include "compute/core/backend.h"
#include "render/colormap.h"
#include "render/gl/gl_check.h"
#include "render/shaders.h"

namespace ws::render {

namespace {

// Storage buffer bindings, as the shaders declare them.
constexpr GLuint kCorners = 0, kPositions = 1, kValues = 2, kStart = 3, kLinePoints = 4;

template <typename T>
void fill(GLuint buffer, const std::vector<T>& data) {
  WS_GL_CHECK(glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer));
  WS_GL_CHECK(glBufferData(GL_SHADER_STORAGE_BUFFER,
                           GLsizeiptr(std::max<std::size_t>(data.size(), 1) * sizeof(T)),
                           data.empty() ? nullptr : data.data(), GL_STATIC_DRAW));
  WS_GL_CHECK(glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0));
}

}  // namespace

MeshRenderer::MeshRenderer()
    : program_(gl::compileProgram("mesh", shaderSource("mesh.vert"), shaderSource("mesh.frag"))),
      pathProgram_(
          gl::compileProgram("paths", shaderSource("paths.vert"), shaderSource("paths.frag"))),
      lineProgram_(
          gl::compileProgram("lines", shaderSource("lines.vert"), shaderSource("lines.frag"))),
      vertexArray_(gl::makeVertexArray()),
      corners_(gl::makeBuffer()),
      start_(gl::makeBuffer()),
      positions_(gl::makeBuffer()),
      values_(gl::makeBuffer()),
      linePoints_(gl::makeBuffer()),
      colormap_(gl::makeTexture()) {
  interopDevice_ = cudaDeviceForCurrentContext(interopProblem_);
}

MeshRenderer::~MeshRenderer() = default;

void MeshRenderer::disableInterop(const std::string& why) {
  positionsInterop_.reset();
  valuesInterop_.reset();
  interopDevice_ = -1;
  interopProblem_ = why;
}

void MeshRenderer::upload(Module& module, const MeshScene& scene) {
  if (scene.revision == revision_) return;  // revisions are unique across modules
  std::vector<std::uint32_t> corners;
  std::vector<float> start;
  module.meshTopology(corners, start);
  fill(corners_.get(), corners);
  fill(start_.get(), start);
  revision_ = scene.revision;
}

void MeshRenderer::reserve(std::size_t vertices, std::size_t values) {
  const bool wantInterop = interopDevice_ >= 0;
  if (vertices <= vertexCapacity_ && values <= valueCapacity_ &&
      bool(positionsInterop_) == wantInterop)
    return;
  positionsInterop_.reset();
  valuesInterop_.reset();
  vertexCapacity_ = std::max(vertices, vertexCapacity_);
  valueCapacity_ = std::max(values, valueCapacity_);
  for (auto [buffer, bytes] : {std::pair{positions_.get(), 3 * vertexCapacity_ * sizeof(float)},
                               std::pair{values_.get(), valueCapacity_ * sizeof(float)}}) {
    WS_GL_CHECK(glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer));
    WS_GL_CHECK(glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(std::max<std::size_t>(bytes, 4)),
                             nullptr, GL_STREAM_DRAW));
  }
  WS_GL_CHECK(glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0));
  positionsInterop_ = tryRegisterWithCuda(positions_.get(), interopDevice_, interopProblem_);
  if (interopDevice_ >= 0)
    valuesInterop_ = tryRegisterWithCuda(values_.get(), interopDevice_, interopProblem_);
  if (interopDevice_ < 0) positionsInterop_.reset();  // both or neither
}

void MeshRenderer::uploadColormap(const std::string& name) {
  if (name == colormapName_) return;
  fillColormapTexture(colormap_.get(), name);
  colormapName_ = name;
}

void MeshRenderer::draw(Module& module, const MeshScene& scene, const OrbitCamera& camera,
                        int viewportWidth, int viewportHeight, const std::string& colormap) {
  if (viewportWidth <= 0 || viewportHeight <= 0 || scene.triangles == 0) return;
  upload(module, scene);
  const bool perTriangle = scene.values == MeshScene::Values::PerTriangle;
  const std::size_t valueCount = perTriangle ? scene.triangles : scene.vertices;
  reserve(scene.vertices, valueCount);
  if (module.backend() == Backend::Cuda && positionsInterop_ && valuesInterop_) {
    CudaGlBuffer::Mapping positions(*positionsInterop_), values(*valuesInterop_);
    MeshImage image{static_cast<float*>(positions.device()), static_cast<float*>(values.device()),
                    scene.vertices, valueCount, true};
    module.renderMesh(image);
    transferMode_ = "CUDA-GL interop";
  } else {
    hostPositions_.resize(3 * scene.vertices);
    hostValues_.resize(valueCount);
    MeshImage image{hostPositions_.data(), hostValues_.data(), scene.vertices, valueCount, false};
    module.renderMesh(image);
    for (auto [buffer, data] :
         {std::pair{positions_.get(), &hostPositions_}, std::pair{values_.get(), &hostValues_}}) {
      WS_GL_CHECK(glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer));
      WS_GL_CHECK(glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0,
                                  GLsizeiptr(data->size() * sizeof(float)), data->data()));
    }
    WS_GL_CHECK(glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0));
    transferMode_ =
        module.backend() == Backend::Cuda ? "host copy (" + interopProblem_ + ")" : "CPU upload";
  }

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
  WS_GL_CHECK(glDisable(GL_DEPTH_TEST));  // the scene's lines show through the mesh
  drawLines(scene.lines, viewProjection);
  WS_GL_CHECK(glBindVertexArray(0));
}

void MeshRenderer::drawLines(const std::vector<SceneLines>& lines,
                             const glm::mat4& viewProjection) {
  if (lines.empty()) return;
  const GLuint program = lineProgram_.get();
  WS_GL_CHECK(glUseProgram(program));
  glUniformMatrix4fv(glGetUniformLocation(program, "viewProjection"), 1, GL_FALSE,
                     glm::value_ptr(viewProjection));
  for (const SceneLines& batch : lines) {
    if (batch.points.empty()) continue;
    fill(linePoints_.get(), batch.points);
    WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kLinePoints, linePoints_.get()));
    glUniform3fv(glGetUniformLocation(program, "colour"), 1, batch.colour);
    WS_GL_CHECK(glDrawArrays(GL_LINES, 0, GLsizei(batch.points.size() / 3)));
  }
}

}  // namespace ws::render
