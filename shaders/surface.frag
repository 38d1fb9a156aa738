#version 430 core
// The value through a colour map, or one colour (fixed surfaces), lit from both sides by the
// interpolated normal: an isosurface seen from inside is shaded as well as from outside.
in vec3 normal;
in float value;
uniform sampler2D colormap;
uniform float minValue, maxValue;
uniform bool oneColour;
uniform vec3 colour;
uniform vec3 lightDirection;
out vec4 fragment;

void main() {
  vec3 base = colour;
  if (!oneColour) {
    const float s = clamp((value - minValue) / max(maxValue - minValue, 1e-30), 0.0, 1.0);
    base = texture(colormap, vec2(s, 0.5)).rgb;
  }
  const float length2 = dot(normal, normal);
  const float light = length2 > 0.0 ? abs(dot(normal * inversesqrt(length2), lightDirection)) : 1.0;
  fragment = vec4(base * (0.3 + 0.7 * light), 1.0);
}
