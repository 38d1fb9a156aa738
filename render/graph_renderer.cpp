#include "render/graph_renderer.h"

#include <algorithm>

#include "render/colormap.h"
#include "render/gl/gl_check.h"
#include "render/shaders.h"

namespace ws::render {

namespace {

// Storage buffer bindings, as the shaders declare them.
constexpr GLuint kEnds = 0, kNodes = 1, kEdges = 2;

}  // namespace

GraphRenderer::GraphRenderer(std::shared_ptr<InteropLink> link)
    : nodeProgram_(gl::compileProgram("graph nodes", shaderSource("graph_nodes.vert"),
                                      shaderSource("graph_nodes.frag"))),
      edgeProgram_(gl::compileProgram("graph edges", shaderSource("graph_edges.vert"),
                                      shaderSource("graph_edges.frag"))),
      vertexArray_(gl::makeVertexArray()),
      ends_(gl::makeBuffer()),
      nodes_(link, GL_SHADER_STORAGE_BUFFER),
      edges_(link, GL_SHADER_STORAGE_BUFFER),
      colormap_(gl::makeTexture()),
      edgeColormap_(gl::makeTexture()) {}

GraphRenderer::~GraphRenderer() = default;

void GraphRenderer::draw(GraphSource& source, Backend writer, const GraphScene& scene,
                         const Camera2D& camera, int viewportWidth, int viewportHeight,
                         const std::string& colormap) {
  if (viewportWidth <= 0 || viewportHeight <= 0 || scene.nodes == 0) return;
  if (scene.revision != revision_) {  // revisions are unique across modules
    std::vector<std::uint32_t> ends;
    source.graphTopology(ends);
    gl::fillStorageBuffer(ends_.get(), ends.data(), ends.size() * sizeof(std::uint32_t));
    revision_ = scene.revision;
  }
  // Both reserved before either is written: a failed registration sends both through the host.
  nodes_.reserve(4 * scene.nodes * sizeof(float));
  edges_.reserve(2 * scene.edges * sizeof(float));
  SharedBuffer::Writing nodes = nodes_.write(4 * scene.nodes * sizeof(float), writer);
  SharedBuffer::Writing edges = edges_.write(2 * scene.edges * sizeof(float), writer);
  GraphImage image{nodes.as<float>(), edges.as<float>(), scene.nodes, scene.edges,
                   nodes.onDevice()};
  source.renderGraph(image);
  nodes.finish();
  edges.finish();
  if (colormap != colormapName_) {
    fillColormapTexture(colormap_.get(), colormap);
    fillColormapTexture(edgeColormap_.get(), scene.edgeValue.colormap);
    colormapName_ = colormap;
  }

  const FieldRequest view = camera.request(viewportWidth, viewportHeight);
  WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kEnds, ends_.get()));
  WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kNodes, nodes_.get()));
  WS_GL_CHECK(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kEdges, edges_.get()));
  WS_GL_CHECK(glBindVertexArray(vertexArray_.get()));
  WS_GL_CHECK(glEnable(GL_BLEND));
  WS_GL_CHECK(glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
  WS_GL_CHECK(glActiveTexture(GL_TEXTURE0));
  for (const GLuint program : {edgeProgram_.get(), nodeProgram_.get()}) {
    WS_GL_CHECK(glUseProgram(program));
    glUniform2f(glGetUniformLocation(program, "origin"), float(view.originX), float(view.originY));
    glUniform1f(glGetUniformLocation(program, "worldPerPixel"), float(view.worldPerPixel));
    glUniform2f(glGetUniformLocation(program, "viewport"), float(viewportWidth),
                float(viewportHeight));
    glUniform1i(glGetUniformLocation(program, "colormap"), 0);
  }
  WS_GL_CHECK(glUseProgram(edgeProgram_.get()));
  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, edgeColormap_.get()));
  if (scene.edges) WS_GL_CHECK(glDrawArrays(GL_TRIANGLES, 0, GLsizei(6 * scene.edges)));

  const GLuint program = nodeProgram_.get();
  WS_GL_CHECK(glUseProgram(program));
  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, colormap_.get()));
  float palette[3 * 12];
  for (int k = 0; k < 12; ++k)
    for (int c = 0; c < 3; ++c)
      palette[3 * k + c] = float(kCategoryColours[k] >> (16 - 8 * c) & 0xff) / 255;
  glUniform3fv(glGetUniformLocation(program, "palette"), 12, palette);
  glUniform1i(glGetUniformLocation(program, "categories"), scene.categories);
  glUniform1f(glGetUniformLocation(program, "minValue"), scene.nodeValue.minValue);
  glUniform1f(glGetUniformLocation(program, "maxValue"), scene.nodeValue.maxValue);
  glUniform1i(glGetUniformLocation(program, "picked"), int(scene.picked));
  WS_GL_CHECK(glDrawArrays(GL_TRIANGLES, 0, GLsizei(6 * scene.nodes)));
  WS_GL_CHECK(glDisable(GL_BLEND));
  WS_GL_CHECK(glBindVertexArray(0));
}

}  // namespace ws::render
