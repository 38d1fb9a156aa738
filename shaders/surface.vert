#version 430 core
// A surface's triangles without vertex attributes: draw vertex i is the storage buffer's vertex i,
// two vec4s (its position and value, then its normal; compute/views/surface.h).
layout(std430, binding = 0) readonly buffer Vertices { vec4 vertices[]; };
uniform mat4 viewProjection;
out vec3 normal;
out float value;

void main() {
  const vec4 positionAndValue = vertices[2 * gl_VertexID];
  normal = vertices[2 * gl_VertexID + 1].xyz;
  value = positionAndValue.w;
  gl_Position = viewProjection * vec4(positionAndValue.xyz, 1.0);
}
