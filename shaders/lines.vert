#version 430 core
// Lines over a 3-D scene (the vertex inspector's): two points per segment, from a storage buffer.
layout(std430, binding = 4) readonly buffer Points { float points[]; };
uniform mat4 viewProjection;

void main() {
  const int i = 3 * gl_VertexID;
  gl_Position = viewProjection * vec4(points[i], points[i + 1], points[i + 2], 1.0);
}
