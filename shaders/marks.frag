#version 430 core
// A mark's colour, opaque.
in vec3 colour;
out vec4 fragment;

void main() {
  fragment = vec4(colour, 1.0);
}
