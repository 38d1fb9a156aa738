#version 430 core
// Graph nodes as discs, six vertices (a square) per node, at least a few pixels wide so that a
// zoomed-out graph still shows its nodes; the square leaves 3 pixels around the disc for the
// picked node's ring.
layout(std430, binding = 1) readonly buffer Nodes { vec4 nodes[]; };  // x, y, radius, value
uniform vec2 origin;
uniform float worldPerPixel;
uniform vec2 viewport;
out vec2 offset;      // from the centre, in pixels
out float value;
flat out float radius;  // in pixels
flat out int node;

void main() {
  node = gl_VertexID / 6;
  const int corner = gl_VertexID % 6;
  const vec4 n = nodes[node];
  radius = max(n.z / worldPerPixel, 4.0);
  const vec2 corners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1),
                                 vec2(-1, 1));
  offset = corners[corner] * (radius + 3.0);
  value = n.w;
  const vec2 pixel = (n.xy - origin) / worldPerPixel + offset;
  gl_Position = vec4(pixel.x / viewport.x * 2.0 - 1.0, 1.0 - pixel.y / viewport.y * 2.0, 0.0, 1.0);
}
