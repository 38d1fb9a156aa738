#pragma once
// The one way to include OpenGL here: libepoxy loads the entry points for whichever context
// (GLFW or EGL) is current. Include this before anything that might pull in GL/gl.h.
#include <epoxy/gl.h>
