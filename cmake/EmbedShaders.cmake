# Writes OUTPUT: a C++ file defining ws::render::shaderSource() over the GLSL files in SHADERS.
string(REPLACE "|" ";" SHADERS "${SHADERS}")
set(body "")
foreach(path IN LISTS SHADERS)
  get_filename_component(name "${path}" NAME)
  file(READ "${path}" text)
  string(APPEND body "      {\"${name}\", R\"glsl(${text})glsl\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "// Generated from shaders/ by cmake/EmbedShaders.cmake: edit the .vert/.frag files.
#include \"render/shaders.h\"

#include <map>
#include <stdexcept>

namespace ws::render {

const std::string& shaderSource(const std::string& fileName) {
  static const std::map<std::string, std::string> sources = {
${body}  };
  const auto it = sources.find(fileName);
  if (it == sources.end()) throw std::invalid_argument(\"no embedded shader '\" + fileName + \"'\");
  return it->second;
}

}  // namespace ws::render
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
