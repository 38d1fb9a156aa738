#include "render/gl/egl_context.h"

#include <epoxy/egl.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "compute/core/errors.h"
#include "render/gl/gl.h"
#include "render/gl/gl_check.h"

namespace ws::gl {

namespace {

bool isSoftware(EGLDeviceEXT device) {
  const char* extensions = eglQueryDeviceStringEXT(device, EGL_EXTENSIONS);
  return extensions && std::strstr(extensions, "EGL_MESA_device_software");
}

}  // namespace

EglContext::EglContext(int preferredDevice) {
  // EGL_EXT_device_base is the older name for enumeration + query (NVIDIA's driver may list only
  // it).
  const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  const std::string extensions = clientExtensions ? clientExtensions : "";
  const bool enumeration = extensions.find("EGL_EXT_device_enumeration") != std::string::npos ||
                           extensions.find("EGL_EXT_device_base") != std::string::npos;
  if (!enumeration || extensions.find("EGL_EXT_platform_device") == std::string::npos)
    throw GlError(
        "EGL lacks device enumeration or EGL_EXT_platform_device, so no headless "
        "rendering here (install libegl1 and a driver: Mesa's libegl-mesa0 or NVIDIA's). "
        "EGL client extensions: '" +
        extensions + "'");
  EGLDeviceEXT devices[16];
  EGLint count = 0;
  if (!eglQueryDevicesEXT(16, devices, &count) || count == 0)
    throw GlError("EGL found no devices to render on");
  if (preferredDevice >= count)
    throw InputError("--egl-device " + std::to_string(preferredDevice) + ": this machine has " +
                     std::to_string(count) + " EGL device" + (count == 1 ? "" : "s") + " (0 to " +
                     std::to_string(count - 1) + ")");
  std::vector<int> order;
  if (preferredDevice >= 0) order.push_back(preferredDevice);
  for (int i = 0; i < count; ++i)
    if (!isSoftware(devices[i])) order.push_back(i);
  for (int i = 0; i < count; ++i)
    if (isSoftware(devices[i])) order.push_back(i);

  std::string problems;
  for (int index : order) {
    EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[index], nullptr);
    EGLint major = 0, minor = 0;
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
      problems += " device " + std::to_string(index) + ": eglInitialize failed;";
      continue;
    }
    const EGLint configAttributes[] = {EGL_SURFACE_TYPE,
                                       EGL_PBUFFER_BIT,
                                       EGL_RENDERABLE_TYPE,
                                       EGL_OPENGL_BIT,
                                       EGL_RED_SIZE,
                                       8,
                                       EGL_GREEN_SIZE,
                                       8,
                                       EGL_BLUE_SIZE,
                                       8,
                                       EGL_NONE};
    EGLConfig config;
    EGLint configs = 0;
    if (!eglBindAPI(EGL_OPENGL_API) ||
        !eglChooseConfig(display, configAttributes, &config, 1, &configs) || configs == 0) {
      problems += " device " + std::to_string(index) + ": no OpenGL config;";
      eglTerminate(display);
      continue;
    }
    const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                        4,
                                        EGL_CONTEXT_MINOR_VERSION,
                                        3,
                                        EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                        EGL_NONE};
    EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttributes);
    if (context == EGL_NO_CONTEXT ||
        !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      problems += " device " + std::to_string(index) + ": no OpenGL 4.3 core context;";
      if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
      eglTerminate(display);
      continue;
    }
    display_ = display;
    context_ = context;
    description_ = std::string(reinterpret_cast<const char*>(glGetString(GL_RENDERER))) +
                   " (OpenGL " + reinterpret_cast<const char*>(glGetString(GL_VERSION)) +
                   ", EGL device " + std::to_string(index) + ")";
    return;
  }
  throw GlError("no EGL device gave an OpenGL 4.3 core context:" + problems);
}

EglContext::~EglContext() {
  if (!display_) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display_, context_);
  eglTerminate(display_);
}

void EglContext::makeCurrent() {
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_);
}

}  // namespace ws::gl
