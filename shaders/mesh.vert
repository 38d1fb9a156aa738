#version 430 core
// A triangle mesh without vertex attributes: draw vertex i is corner i, of triangle i / 3. The
// corners, positions and values come from storage buffers; each of a triangle's three vertices
// passes all three corner values on (flat), with its barycentric coordinate, so that the fragment
// can take the triangle's value, interpolate the vertices', or take its nearest corner's.
layout(std430, binding = 0) readonly buffer Corners { uint corners[]; };
layout(std430, binding = 1) readonly buffer Positions { float positions[]; };
layout(std430, binding = 2) readonly buffer Values { float values[]; };
uniform mat4 viewProjection;
uniform int valueMode;  // 0: per triangle, 1: per vertex, 2: per vertex, nearest corner
out vec3 worldPosition;
out vec3 barycentric;
flat out vec3 cornerValues;

void main() {
  const int t = gl_VertexID / 3, k = gl_VertexID % 3;
  const uint v = corners[gl_VertexID];
  worldPosition = vec3(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]);
  barycentric = vec3(k == 0, k == 1, k == 2);
  if (valueMode == 0)
    cornerValues = vec3(values[t]);
  else
    cornerValues = vec3(values[corners[3 * t]], values[corners[3 * t + 1]],
                        values[corners[3 * t + 2]]);
  gl_Position = viewProjection * vec4(worldPosition, 1.0);
}
