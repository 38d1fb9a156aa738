#version 430 core
// An edge's colour through the colour map; removed edges fade with their opacity.
in float value;
in float opacity;
uniform sampler2D colormap;
out vec4 color;

void main() {
  if (opacity <= 0.0) discard;
  color = vec4(texture(colormap, vec2(0.15 + 0.85 * value, 0.5)).rgb, opacity * (0.35 + 0.5 * value));
}
