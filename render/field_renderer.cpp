#include "render/field_renderer.h"

#include <algorithm>

#include "compute/core/backend.h"
#include "compute/core/cuda_check.h"
#include "render/colormap.h"
#include "render/gl/gl_check.h"
#include "render/shaders.h"

namespace ws::render {

namespace {
constexpr float kPointSize = 3;  // pixels
}  // namespace

FieldRenderer::FieldRenderer()
    : program_(gl::compileProgram("field2d", shaderSource("field2d.vert"),
                                  shaderSource("field2d.frag"))),
      vertexArray_(gl::makeVertexArray()),
      field_(gl::makeTexture()),
      colormapTexture_(gl::makeTexture()),
      pixelBuffer_(gl::makeBuffer()),
      pointProgram_(
          gl::compileProgram("points", shaderSource("points.vert"), shaderSource("points.frag"))),
      pointArray_(gl::makeVertexArray()),
      pointBuffer_(gl::makeBuffer()) {
  interopDevice_ = cudaDeviceForCurrentContext(interopProblem_);
  if (interopDevice_ >= 0) selectGpu(interopDevice_);
}

FieldRenderer::~FieldRenderer() = default;

void FieldRenderer::disableInterop(const std::string& why) {
  interop_.reset();
  pointInterop_.reset();
  interopDevice_ = -1;
  interopProblem_ = why;
}

void FieldRenderer::resize(int width, int height) {
  if (width == width_ && height == height_) return;
  interop_.reset();
  width_ = width;
  height_ = height;
  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, field_.get()));
  WS_GL_CHECK(glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, width, height, 0, GL_RED, GL_FLOAT, nullptr));
  WS_GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
  WS_GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
  WS_GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixelBuffer_.get()));
  WS_GL_CHECK(glBufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(width) * height * sizeof(float),
                           nullptr, GL_STREAM_DRAW));
  WS_GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
  interop_ = registerWithCuda(pixelBuffer_.get());
}

std::unique_ptr<CudaGlBuffer> FieldRenderer::registerWithCuda(GLuint buffer) {
  std::unique_ptr<CudaGlBuffer> registered =
      tryRegisterWithCuda(buffer, interopDevice_, interopProblem_);
  if (interopDevice_ < 0) disableInterop(interopProblem_);  // drops the other registrations
  return registered;
}

void FieldRenderer::uploadColormap(const std::string& name) {
  if (name == colormapName_) return;
  fillColormapTexture(colormapTexture_.get(), name);
  colormapName_ = name;
}

void FieldRenderer::draw(Module& module, const Camera2D& camera, int viewportWidth,
                         int viewportHeight, const std::string& colormap, bool gridLines) {
  if (viewportWidth <= 0 || viewportHeight <= 0) return;
  resize(viewportWidth, viewportHeight);
  uploadColormap(colormap);
  const FieldRequest request = camera.request(viewportWidth, viewportHeight);

  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, field_.get()));
  WS_GL_CHECK(glPixelStorei(GL_UNPACK_ALIGNMENT, 4));
  if (module.backend() == Backend::Cuda && interop_ && useInterop_) {
    {
      CudaGlBuffer::Mapping mapping(*interop_);  // unmapped at the end of this scope
      FieldImage image{static_cast<float*>(mapping.device()), viewportWidth, viewportHeight, true};
      module.renderField(request, image);
    }
    WS_GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixelBuffer_.get()));
    WS_GL_CHECK(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, viewportWidth, viewportHeight, GL_RED,
                                GL_FLOAT, nullptr));
    WS_GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
    transferMode_ = "CUDA-GL interop";
  } else {
    hostPixels_.resize(std::size_t(viewportWidth) * viewportHeight);
    FieldImage image{hostPixels_.data(), viewportWidth, viewportHeight, false};
    module.renderField(request, image);
    WS_GL_CHECK(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, viewportWidth, viewportHeight, GL_RED,
                                GL_FLOAT, hostPixels_.data()));
    transferMode_ = module.backend() != Backend::Cuda ? "CPU upload"
                    : interop_ && !useInterop_        ? "read-back and upload (interop off)"
                                                      : "host copy (" + interopProblem_ + ")";
  }

  const FieldView view = module.fieldViews()[module.currentFieldView()];
  const GLuint program = program_.get();
  WS_GL_CHECK(glUseProgram(program));
  WS_GL_CHECK(glActiveTexture(GL_TEXTURE0));
  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, field_.get()));
  WS_GL_CHECK(glActiveTexture(GL_TEXTURE1));
  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, colormapTexture_.get()));
  glUniform1i(glGetUniformLocation(program, "field"), 0);
  glUniform1i(glGetUniformLocation(program, "colormap"), 1);
  glUniform2f(glGetUniformLocation(program, "range"), view.minValue, view.maxValue);
  glUniform3fv(glGetUniformLocation(program, "background"), 1, kBackground);
  glUniform2f(glGetUniformLocation(program, "origin"), float(request.originX),
              float(request.originY));
  glUniform1f(glGetUniformLocation(program, "worldPerPixel"), float(request.worldPerPixel));
  glUniform1i(glGetUniformLocation(program, "gridLines"), gridLines && camera.zoom >= 8);
  glUniform1i(glGetUniformLocation(program, "viewportHeight"), viewportHeight);
  GLint viewport[4];
  glGetIntegerv(GL_VIEWPORT, viewport);
  glUniform2i(glGetUniformLocation(program, "viewportOrigin"), viewport[0], viewport[1]);
  WS_GL_CHECK(glBindVertexArray(vertexArray_.get()));
  WS_GL_CHECK(glDrawArrays(GL_TRIANGLES, 0, 3));
  WS_GL_CHECK(glBindVertexArray(0));
  WS_GL_CHECK(glActiveTexture(GL_TEXTURE0));
  drawPoints(module, request);
}

void FieldRenderer::reservePoints(std::size_t count) {
  const bool wantInterop = interopDevice_ >= 0;
  if (count <= pointCapacity_ && bool(pointInterop_) == wantInterop) return;
  pointInterop_.reset();
  pointCapacity_ = std::max(count, pointCapacity_);
  WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, pointBuffer_.get()));
  WS_GL_CHECK(glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(pointCapacity_ * 3 * sizeof(float)), nullptr,
                           GL_STREAM_DRAW));
  WS_GL_CHECK(glBindVertexArray(pointArray_.get()));
  WS_GL_CHECK(glEnableVertexAttribArray(0));
  WS_GL_CHECK(glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), nullptr));
  WS_GL_CHECK(glBindVertexArray(0));
  WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
  pointInterop_ = registerWithCuda(pointBuffer_.get());
}

void FieldRenderer::drawPoints(Module& module, const FieldRequest& request) {
  const std::size_t count = module.pointCount();
  if (count == 0) return;
  reservePoints(count);
  if (module.backend() == Backend::Cuda && pointInterop_ && useInterop_) {
    CudaGlBuffer::Mapping mapping(*pointInterop_);
    PointImage points{static_cast<float*>(mapping.device()), count, true};
    module.renderPoints(points);
  } else {
    hostPoints_.resize(3 * count);
    PointImage points{hostPoints_.data(), count, false};
    module.renderPoints(points);
    WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, pointBuffer_.get()));
    WS_GL_CHECK(glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(hostPoints_.size() * sizeof(float)),
                                hostPoints_.data()));
    WS_GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
  }
  const GLuint program = pointProgram_.get();
  WS_GL_CHECK(glUseProgram(program));
  glUniform2f(glGetUniformLocation(program, "origin"), float(request.originX),
              float(request.originY));
  glUniform1f(glGetUniformLocation(program, "worldPerPixel"), float(request.worldPerPixel));
  glUniform2f(glGetUniformLocation(program, "viewport"), float(request.width),
              float(request.height));
  glUniform1f(glGetUniformLocation(program, "pointSize"), kPointSize);
  WS_GL_CHECK(glEnable(GL_PROGRAM_POINT_SIZE));
  WS_GL_CHECK(glEnable(GL_BLEND));
  WS_GL_CHECK(glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
  WS_GL_CHECK(glBindVertexArray(pointArray_.get()));
  WS_GL_CHECK(glDrawArrays(GL_POINTS, 0, GLsizei(count)));
  WS_GL_CHECK(glBindVertexArray(0));
  WS_GL_CHECK(glDisable(GL_BLEND));
}

}  // namespace ws::render
