#include "render/gl/gl_check.h"

namespace ws::gl {

void checkError(const char* call, const char* file, int line) {
  const GLenum error = glGetError();
  if (error == GL_NO_ERROR) return;
  while (glGetError() != GL_NO_ERROR) {
  }
  const char* name = error == GL_INVALID_ENUM        ? "GL_INVALID_ENUM"
                     : error == GL_INVALID_VALUE     ? "GL_INVALID_VALUE"
                     : error == GL_INVALID_OPERATION ? "GL_INVALID_OPERATION"
                     : error == GL_OUT_OF_MEMORY     ? "GL_OUT_OF_MEMORY"
                                                     : "GL error";
  throw GlError(std::string(name) + " in " + call + " at " + file + ":" + std::to_string(line));
}

}  // namespace ws::gl
