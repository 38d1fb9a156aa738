#version 430 core
// Movement vectors: light, to show over every colour map.
out vec4 fragment;

void main() {
  fragment = vec4(0.95, 0.95, 0.98, 1.0);
}
