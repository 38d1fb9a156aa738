#version 430 core
// One colour per batch of lines.
uniform vec3 colour;
out vec4 fragment;

void main() {
  fragment = vec4(colour, 1.0);
}
