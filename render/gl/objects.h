#pragma once
// Move-only owners of GL object names, and a compiled shader program.
#include <cstddef>
#include <string>
#include <utility>

#include "render/gl/gl.h"

namespace ws::gl {

template <void (*Delete)(GLuint)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(GLuint id) : id_(id) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  GLuint get() const { return id_; }
  void reset() {
    if (id_) Delete(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

void deleteBuffer(GLuint id);
void deleteTexture(GLuint id);
void deleteVertexArray(GLuint id);
void deleteFramebuffer(GLuint id);
void deleteProgram(GLuint id);

using Buffer = Handle<deleteBuffer>;
using Texture = Handle<deleteTexture>;
using VertexArray = Handle<deleteVertexArray>;
using Framebuffer = Handle<deleteFramebuffer>;
using Program = Handle<deleteProgram>;

Buffer makeBuffer();
// Gives a shader storage buffer `bytes` of `data` (null: left undefined), at least 4 bytes so
// that an empty one can still be bound.
void fillStorageBuffer(GLuint buffer, const void* data, std::size_t bytes,
                       GLenum usage = GL_STATIC_DRAW);
Texture makeTexture();
VertexArray makeVertexArray();

// Compiles and links; throws GlError with the compiler's log and the shader's name.
Program compileProgram(const std::string& name, const std::string& vertexSource,
                       const std::string& fragmentSource);

}  // namespace ws::gl
