#version 430 core
// Marks over the field: each segment (world x0 y0 x1 y1, a colour, a width in world units; 8
// floats) drawn as a quad `width` pixels wide, or its own width where that is more, with square
// ends (a segment of no length is a square), placed with the field's origin and scale (top row
// first). One instance a segment, six vertices each.
layout(std430, binding = 5) readonly buffer Marks { float marks[]; };
uniform vec2 origin;
uniform float worldPerPixel;
uniform vec2 viewport;
uniform float width;
uniform float rim;
uniform bool outline;  // a dark rim under the colour, so that a mark shows on every colour map
out vec3 colour;

const vec2 kCorners[6] =
    vec2[](vec2(0, -1), vec2(1, -1), vec2(1, 1), vec2(0, -1), vec2(1, 1), vec2(0, 1));

void main() {
  const int m = 8 * gl_InstanceID;
  const vec2 p0 = (vec2(marks[m], marks[m + 1]) - origin) / worldPerPixel;
  const vec2 p1 = (vec2(marks[m + 2], marks[m + 3]) - origin) / worldPerPixel;
  const float length_ = length(p1 - p0);
  const vec2 along = length_ > 0.0 ? (p1 - p0) / length_ : vec2(1, 0);
  const vec2 across = vec2(-along.y, along.x);
  const float half_ = 0.5 * (max(width, marks[m + 7] / worldPerPixel) + (outline ? 2.0 * rim : 0.0));
  const vec2 corner = kCorners[gl_VertexID];
  const vec2 pixel =
      mix(p0 - along * half_, p1 + along * half_, corner.x) + across * (corner.y * half_);
  gl_Position = vec4(pixel.x / viewport.x * 2.0 - 1.0, 1.0 - pixel.y / viewport.y * 2.0, 0.0, 1.0);
  colour = outline ? vec3(0.02) : vec3(marks[m + 4], marks[m + 5], marks[m + 6]);
}
