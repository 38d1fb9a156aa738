#version 430 core
// The value through the colour map, brightened a little so that a line shows over a surface of
// the same value, and a slow one over the dark background.
in float value;
uniform sampler2D colormap;
uniform float minValue, maxValue;
out vec4 fragment;

void main() {
  const float s = clamp((value - minValue) / max(maxValue - minValue, 1e-30), 0.0, 1.0);
  fragment = vec4(mix(texture(colormap, vec2(s, 0.5)).rgb, vec3(1.0), 0.3), 1.0);
}
