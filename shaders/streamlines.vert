#version 430 core
// Line segments through a 3-D scene without vertex attributes: draw vertex i is the storage
// buffer's vertex i, its position and value (compute/views/surface.h). A segment whose value is
// negative is not drawn: both its ends go outside the clip volume.
layout(std430, binding = 6) readonly buffer Segments { vec4 vertices[]; };
uniform mat4 viewProjection;
out float value;

void main() {
  const vec4 positionAndValue = vertices[gl_VertexID];
  value = positionAndValue.w;
  gl_Position = positionAndValue.w < 0.0 ? vec4(2.0, 2.0, 2.0, 1.0)
                                         : viewProjection * vec4(positionAndValue.xyz, 1.0);
}
