#version 430 core
// A scalar field sampled one texel per pixel (top row first), mapped through a colour map.
// NaN marks pixels outside the world (or walls); the two pixels just outside the world's box
// draw its border. Cell grid lines are drawn when cells are large on screen.
uniform sampler2D field;
uniform sampler2D colormap;
uniform vec2 range;
uniform vec3 background;
uniform vec3 border;
uniform vec4 worldBox;  // min x, min y, max x, max y
uniform vec2 origin;
uniform float worldPerPixel;
uniform bool gridLines;
uniform int viewportHeight;
uniform ivec2 viewportOrigin;  // the viewport's corner in the framebuffer (the A/B view's halves)
out vec4 color;

void main() {
  ivec2 at = ivec2(gl_FragCoord.xy) - viewportOrigin;
  ivec2 pixel = ivec2(at.x, viewportHeight - 1 - at.y);
  float value = texelFetch(field, pixel, 0).r;
  if (isnan(value)) {
    // Pixels outside the box along either axis, counted from its edge.
    vec2 world = origin + (vec2(pixel) + 0.5) * worldPerPixel;
    vec2 out_ = max(max(worldBox.xy - world, world - worldBox.zw), vec2(0.0)) / worldPerPixel;
    float outside = max(out_.x, out_.y);
    color = vec4(outside > 0.0 && outside <= 2.0 ? border : background, 1.0);
    return;
  }
  float t = clamp((value - range.x) / max(range.y - range.x, 1e-20), 0.0, 1.0);
  color = vec4(texture(colormap, vec2(t * (255.0 / 256.0) + 0.5 / 256.0, 0.5)).rgb, 1.0);
  if (gridLines) {
    // The first pixel of each cell, in x or y, draws a faint line.
    vec2 world = origin + vec2(pixel) * worldPerPixel;
    if (any(notEqual(floor(world), floor(world - worldPerPixel))))
      color.rgb = mix(color.rgb, vec3(0.35, 0.38, 0.45), 0.35);
  }
}
