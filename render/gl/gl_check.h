#pragma once
// Checked GL: a GL error throws GlError naming the call, file and line.
#include <stdexcept>
#include <string>

#include "render/gl/gl.h"

namespace ws::gl {

class GlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void checkError(const char* call, const char* file, int line);

}  // namespace ws::gl

#define WS_GL_CHECK(call)                            \
  do {                                               \
    call;                                            \
    ::ws::gl::checkError(#call, __FILE__, __LINE__); \
  } while (0)
