#include "render/gl/objects.h"

#include "render/gl/gl_check.h"

namespace ws::gl {

void deleteBuffer(GLuint id) {
  glDeleteBuffers(1, &id);
}
void deleteTexture(GLuint id) {
  glDeleteTextures(1, &id);
}
void deleteVertexArray(GLuint id) {
  glDeleteVertexArrays(1, &id);
}
void deleteFramebuffer(GLuint id) {
  glDeleteFramebuffers(1, &id);
}
void deleteProgram(GLuint id) {
  glDeleteProgram(id);
}

Buffer makeBuffer() {
  GLuint id = 0;
  WS_GL_CHECK(glGenBuffers(1, &id));
  return Buffer(id);
}
void fillStorageBuffer(GLuint buffer, const void* data, std::size_t bytes, GLenum usage) {
  WS_GL_CHECK(glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer));
  WS_GL_CHECK(glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(bytes < 4 ? 4 : bytes),
                           bytes ? data : nullptr, usage));
  WS_GL_CHECK(glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0));
}
Texture makeTexture() {
  GLuint id = 0;
  WS_GL_CHECK(glGenTextures(1, &id));
  return Texture(id);
}
VertexArray makeVertexArray() {
  GLuint id = 0;
  WS_GL_CHECK(glGenVertexArrays(1, &id));
  return VertexArray(id);
}

namespace {

GLuint compileStage(const std::string& name, GLenum stage, const std::string& source) {
  const GLuint shader = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw GlError("shader " + name + (stage == GL_VERTEX_SHADER ? ".vert" : ".frag") +
                  " failed to compile: " + log);
  }
  return shader;
}

}  // namespace

Program compileProgram(const std::string& name, const std::string& vertexSource,
                       const std::string& fragmentSource) {
  const GLuint vertex = compileStage(name, GL_VERTEX_SHADER, vertexSource);
  const GLuint fragment = compileStage(name, GL_FRAGMENT_SHADER, fragmentSource);
  Program program(glCreateProgram());
  glAttachShader(program.get(), vertex);
  glAttachShader(program.get(), fragment);
  glLinkProgram(program.get());
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint ok = 0;
  glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetProgramInfoLog(program.get(), sizeof log, nullptr, log);
    throw GlError("shader program " + name + " failed to link: " + log);
  }
  checkError("compileProgram", __FILE__, __LINE__);
  return program;
}

}  // namespace ws::gl
