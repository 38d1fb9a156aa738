#version 430 core
// A node's disc: its community's colour from a palette of 12, or its value through the colour
// map, with a dark rim a pixel and a half wide; the picked node gets a white ring outside it.
in vec2 offset;
in float value;
flat in float radius;
flat in int node;
uniform sampler2D colormap;
uniform int categories;
uniform vec3 palette[12];
uniform float minValue;
uniform float maxValue;
uniform int picked;
out vec4 color;

void main() {
  const float d = length(offset);
  if (node == picked && d > radius + 0.5 && d <= radius + 3.0) {
    color = vec4(1.0);
    return;
  }
  if (d > radius) discard;
  vec3 rgb = categories > 0
                 ? palette[int(value) % 12]
                 : texture(colormap, vec2(clamp((value - minValue) / max(maxValue - minValue, 1e-30), 0.0, 1.0), 0.5)).rgb;
  color = vec4(mix(rgb, vec3(0.05), smoothstep(radius - 1.5, radius, d)), 1.0);
}
