#pragma once
// GLSL sources from shaders/, embedded at build time (cmake/EmbedShaders.cmake).
#include <string>

namespace ws::render {

// Throws std::invalid_argument for an unknown file name ("field2d.frag").
const std::string& shaderSource(const std::string& fileName);

}  // namespace ws::render
