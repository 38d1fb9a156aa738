#version 430 core
// A node's disc: its community's colour from a palette of 12, or its value through the colour
// map, with a dark rim; the picked node gets a white ring.
in vec2 local;
in float value;
flat in int node;
uniform sampler2D colormap;
uniform int categories;
uniform vec3 palette[12];
uniform float minValue;
uniform float maxValue;
uniform int picked;
uniform float worldPerPixel;
out vec4 color;

void main() {
  const float r = length(local);
  if (r > 1.0) discard;
  vec3 rgb = categories > 0
                 ? palette[int(value) % 12]
                 : texture(colormap, vec2(clamp((value - minValue) / max(maxValue - minValue, 1e-30), 0.0, 1.0), 0.5)).rgb;
  rgb = mix(rgb, vec3(0.05), smoothstep(0.62, 0.78, r));
  if (node == picked) rgb = mix(rgb, vec3(1.0), smoothstep(0.78, 0.86, r));
  else if (r > 0.78) discard;
  color = vec4(rgb, 1.0);
}
