#version 430 core
// Flat shading by the face's normal (from screen-space derivatives of the world position) under a
// light at the camera's upper left, plus ambient light.
in vec3 colour;
in vec3 worldPosition;
uniform vec3 lightDirection;
out vec4 fragment;

void main() {
  const vec3 normal = normalize(cross(dFdx(worldPosition), dFdy(worldPosition)));
  const float diffuse = abs(dot(normal, lightDirection));
  fragment = vec4(colour * (0.35 + 0.65 * diffuse), 1.0);
}
