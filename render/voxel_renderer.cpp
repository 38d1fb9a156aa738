#include "render/voxel_renderer.h"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>

#include "compute/core/backend.h"
#include "compute/core/cuda_check.h"
#include "render/gl/gl_check.h"
#include "render/shaders.h"

namespace ws::render {

namespace {
constexpr int kStripVertices = 14;  // a cube as one triangle strip
constexpr int kMaxClasses = 8;      // the shader's colour table
}  // namespace

VoxelRenderer::VoxelRenderer()
    : program_(
          gl::compileProgram("voxels", shaderSource("voxels.vert"), shaderSource("voxels.frag"))),
      vertexArray_(gl::makeVertexArray()),
      buffer_(gl::makeBuffer()) {
  interopDevice_ = cudaDeviceForCurrentContext(interopProblem_);
}

VoxelRenderer::~VoxelRenderer() = default;

void VoxelRenderer::disableInterop(const std::string& why) {
  interop_.reset();
  interopDevice_ = -1;
  interopProblem_ = why;
}

void VoxelRenderer::reserve(std::size_t voxels) {
  const bool wantInterop = interopDevice_ >= 0;
  if (voxels <= capacity_ && bool(interop_) == wantInterop) return;
  interop_.reset();
  capacity_ = std::max(voxels, capacity_ + capacity_ / 2);  // room to grow as the models move
  WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, buffer_.get()));
  WS_GL_CHECK(glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(capacity_ * 2 * sizeof(unsigned)), nullptr,
                           GL_STREAM_DRAW));
  WS_GL_CHECK(glBindVertexArray(vertexArray_.get()));
  WS_GL_CHECK(glEnableVertexAttribArray(0));
  WS_GL_CHECK(glVertexAttribIPointer(0, 2, GL_UNSIGNED_INT, 2 * sizeof(unsigned), nullptr));
  WS_GL_CHECK(glVertexAttribDivisor(0, 1));
  WS_GL_CHECK(glBindVertexArray(0));
  WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
  interop_ = tryRegisterWithCuda(buffer_.get(), interopDevice_, interopProblem_);
}

void VoxelRenderer::draw(Module& module, const VoxelScene& scene, const OrbitCamera& camera,
                         int viewportWidth, int viewportHeight) {
  const std::size_t count = module.voxelCount();
  if (viewportWidth <= 0 || viewportHeight <= 0 || count == 0) return;
  reserve(count);
  if (module.backend() == Backend::Cuda && interop_) {
    CudaGlBuffer::Mapping mapping(*interop_);  // unmapped before GL draws
    VoxelImage voxels{static_cast<unsigned*>(mapping.device()), count, true};
    module.renderVoxels(voxels);
    transferMode_ = "CUDA-GL interop";
  } else {
    host_.resize(2 * count);
    VoxelImage voxels{host_.data(), count, false};
    module.renderVoxels(voxels);
    WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, buffer_.get()));
    WS_GL_CHECK(glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(host_.size() * sizeof(unsigned)),
                                host_.data()));
    WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
    transferMode_ =
        module.backend() == Backend::Cuda ? "host copy (" + interopProblem_ + ")" : "CPU upload";
  }

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
