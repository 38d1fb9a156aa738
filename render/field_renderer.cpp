#include "render/field_renderer.h"

#include "render/colormap.h"
#include "render/gl/gl_check.h"
#include "render/shaders.h"

namespace ws::render {

FieldRenderer::FieldRenderer(std::shared_ptr<InteropLink> link)
    : program_(gl::compileProgram("field2d", shaderSource("field2d.vert"),
                                  shaderSource("field2d.frag"))),
      vertexArray_(gl::makeVertexArray()),
      field_(gl::makeTexture()),
      colormapTexture_(gl::makeTexture()),
      pixels_(std::move(link), GL_PIXEL_UNPACK_BUFFER) {}

FieldRenderer::~FieldRenderer() = default;

void FieldRenderer::resize(int width, int height) {
  if (width == width_ && height == height_) return;
  width_ = width;
  height_ = height;
  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, field_.get()));
  WS_GL_CHECK(glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, width, height, 0, GL_RED, GL_FLOAT, nullptr));
  WS_GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
  WS_GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
}

void FieldRenderer::uploadColormap(const std::string& name) {
  if (name == colormapName_) return;
  fillColormapTexture(colormapTexture_.get(), name);
  colormapName_ = name;
}

void FieldRenderer::draw(FieldSource& source, Backend writer, const Camera2D& camera,
                         const WorldBox& world, int viewportWidth, int viewportHeight,
                         const std::string& colormap, bool gridLines) {
  if (viewportWidth <= 0 || viewportHeight <= 0) return;
  resize(viewportWidth, viewportHeight);
  uploadColormap(colormap);
  const FieldRequest request = camera.request(viewportWidth, viewportHeight);

  SharedBuffer::Writing pixels =
      pixels_.write(std::size_t(viewportWidth) * viewportHeight * sizeof(float), writer);
  FieldImage image{pixels.as<float>(), viewportWidth, viewportHeight, pixels.onDevice()};
  source.renderField(request, image);
  pixels.finish();
  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, field_.get()));
  WS_GL_CHECK(glPixelStorei(GL_UNPACK_ALIGNMENT, 4));
  WS_GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixels_.get()));
  WS_GL_CHECK(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, viewportWidth, viewportHeight, GL_RED,
                              GL_FLOAT, nullptr));
  WS_GL_CHECK(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));

  const FieldView view = source.fieldViews()[source.currentFieldView()];
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
  glUniform3fv(glGetUniformLocation(program, "border"), 1, kWorldBorder);
  glUniform4f(glGetUniformLocation(program, "worldBox"), float(world.minX), float(world.minY),
              float(world.maxX), float(world.maxY));
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
}

}  // namespace ws::render
