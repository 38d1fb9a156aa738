#version 430 core
// Points over the field (tracer particles): world x, world y and an opacity per point, placed
// with the same origin and scale as the field's pixels (top row first).
layout(location = 0) in vec3 point;
uniform vec2 origin;
uniform float worldPerPixel;
uniform vec2 viewport;
uniform float pointSize;
out float opacity;

void main() {
  vec2 pixel = (point.xy - origin) / worldPerPixel;
  gl_Position = vec4(pixel.x / viewport.x * 2.0 - 1.0, 1.0 - pixel.y / viewport.y * 2.0, 0.0, 1.0);
  gl_PointSize = pointSize;
  opacity = point.z;
}
