#version 430 core
// A round dot, light with a dark rim so that it shows on every colour map.
in float opacity;
out vec4 color;

void main() {
  float r = length(gl_PointCoord - vec2(0.5)) * 2.0;
  if (r > 1.0 || opacity <= 0.0) discard;
  vec3 rgb = mix(vec3(0.97), vec3(0.05), smoothstep(0.6, 1.0, r));
  color = vec4(rgb, opacity * 0.85);
}
