#version 430 core
// Graph nodes as discs, six vertices (a square) per node, at least a few pixels wide so that a
// zoomed-out graph still shows its nodes.
layout(std430, binding = 1) readonly buffer Nodes { vec4 nodes[]; };  // x, y, radius, value
uniform vec2 origin;
uniform float worldPerPixel;
uniform vec2 viewport;
out vec2 local;       // -1 .. 1 across the square
out float value;
flat out int node;

void main() {
  node = gl_VertexID / 6;
  const int corner = gl_VertexID % 6;
  const vec4 n = nodes[node];
  const float radius = max(n.z / worldPerPixel, 2.5);
  const vec2 offsets[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1),
                                 vec2(-1, 1));
  local = offsets[corner];
  value = n.w;
  const vec2 pixel = (n.xy - origin) / worldPerPixel + local * (radius + 3.0);
  gl_Position = vec4(pixel.x / viewport.x * 2.0 - 1.0, 1.0 - pixel.y / viewport.y * 2.0, 0.0, 1.0);
}
