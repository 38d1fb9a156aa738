#version 430 core
// Graph edges as bands, six vertices (two triangles) per edge, their ends read from storage
// buffers by gl_VertexID: wider and hotter in colour with higher betweenness. World y grows
// downwards, as in the field views.
layout(std430, binding = 0) readonly buffer Ends { uint ends[]; };
layout(std430, binding = 1) readonly buffer Nodes { vec4 nodes[]; };   // x, y, radius, value
layout(std430, binding = 2) readonly buffer Edges { vec2 edges[]; };   // value, opacity
uniform vec2 origin;
uniform float worldPerPixel;
uniform vec2 viewport;
out float value;
out float opacity;

void main() {
  const int e = gl_VertexID / 6, corner = gl_VertexID % 6;
  const vec2 a = (nodes[ends[2 * e]].xy - origin) / worldPerPixel;
  const vec2 b = (nodes[ends[2 * e + 1]].xy - origin) / worldPerPixel;
  value = edges[e].x;
  opacity = edges[e].y;
  const float len = length(b - a);
  const vec2 along = len > 0.0 ? (b - a) / len : vec2(1.0, 0.0);
  const vec2 across = vec2(-along.y, along.x) * (0.6 + 2.4 * value);
  // Corners 0, 1, 2 and 3, 4, 5: (a-, b-, b+) and (a-, b+, a+).
  const bool atB = corner == 1 || corner == 2 || corner == 4;
  const float side = (corner == 2 || corner == 4 || corner == 5) ? 1.0 : -1.0;
  const vec2 pixel = (atB ? b : a) + side * across;
  gl_Position = vec4(pixel.x / viewport.x * 2.0 - 1.0, 1.0 - pixel.y / viewport.y * 2.0, 0.0, 1.0);
}
