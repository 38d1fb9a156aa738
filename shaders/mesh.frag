#version 430 core
// The mesh's value through a colour map (or a palette, for categories), flat shaded by the face's
// normal from screen-space derivatives, with its edges from the barycentric coordinates' screen
// derivatives: one pixel wide, fading out where triangles become too small to tell apart.
in vec3 worldPosition;
in vec3 barycentric;
flat in vec3 cornerValues;
uniform int valueMode;
uniform sampler2D colormap;
uniform float minValue, maxValue;
uniform int categories;  // > 0: values are categories, coloured from the palette
uniform vec3 palette[12];
uniform vec3 lightDirection;
uniform bool wireframe;
out vec4 fragment;

void main() {
  float value = dot(barycentric, cornerValues);
  if (valueMode == 2) {
    const int nearest = barycentric.x >= max(barycentric.y, barycentric.z) ? 0
                        : barycentric.y >= barycentric.z                  ? 1
                                                                          : 2;
    value = cornerValues[nearest];
  }
  vec3 colour;
  if (categories > 0) {
    colour = palette[int(value + 0.5) % 12];
  } else {
    const float s = clamp((value - minValue) / max(maxValue - minValue, 1e-30), 0.0, 1.0);
    colour = texture(colormap, vec2(s, 0.5)).rgb;
  }
  const vec3 normal = normalize(cross(dFdx(worldPosition), dFdy(worldPosition)));
  colour *= 0.3 + 0.7 * abs(dot(normal, lightDirection));
  if (wireframe) {
    const vec3 width = fwidth(barycentric);
    const vec3 inside = smoothstep(vec3(0.0), 1.5 * width, barycentric);
    const float line = 1.0 - min(min(inside.x, inside.y), inside.z);
    const float strength = 0.8 * (1.0 - smoothstep(0.12, 0.35, max(width.x, max(width.y, width.z))));
    colour = mix(colour, vec3(0.05), line * strength);
  }
  fragment = vec4(colour, 1.0);
}
