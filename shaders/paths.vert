#version 430 core
// Each vertex's path as a line, from where it started (even draw vertices) to where it is now.
layout(std430, binding = 1) readonly buffer Positions { float positions[]; };
layout(std430, binding = 3) readonly buffer Start { float start[]; };
uniform mat4 viewProjection;

void main() {
  const int v = gl_VertexID / 2;
  const vec3 p = gl_VertexID % 2 == 0
                     ? vec3(start[3 * v], start[3 * v + 1], start[3 * v + 2])
                     : vec3(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]);
  gl_Position = viewProjection * vec4(p, 1.0);
}
