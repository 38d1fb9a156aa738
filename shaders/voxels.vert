#version 430 core
// Instanced voxels: one cube per instance, its corner from the packed key (10 bits per axis),
// coloured by its class; hidden classes collapse to nothing. The cube's 14-vertex triangle strip
// comes from gl_VertexID, its face normal from the fragment's screen-space derivatives.
layout(location = 0) in uvec2 voxel;  // packed key, class
uniform mat4 viewProjection;
uniform vec3 origin;
uniform float voxelSize;
uniform uint visibleClasses;
uniform vec3 classColours[8];
out vec3 colour;
out vec3 worldPosition;

// Corners of a unit cube in triangle-strip order (Evans et al.'s 14-vertex strip).
const vec3 kStrip[14] = vec3[](vec3(0, 1, 1), vec3(1, 1, 1), vec3(0, 0, 1), vec3(1, 0, 1),
                               vec3(1, 0, 0), vec3(1, 1, 1), vec3(1, 1, 0), vec3(0, 1, 1),
                               vec3(0, 1, 0), vec3(0, 0, 1), vec3(0, 0, 0), vec3(1, 0, 0),
                               vec3(0, 1, 0), vec3(1, 1, 0));

void main() {
  const uint cls = voxel.y;
  if (cls >= 8u || (visibleClasses & (1u << cls)) == 0u) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the clip volume: culled
    colour = vec3(0.0);
    worldPosition = vec3(0.0);
    return;
  }
  const uvec3 cell = uvec3(voxel.x & 1023u, (voxel.x >> 10) & 1023u, (voxel.x >> 20) & 1023u);
  worldPosition = origin + (vec3(cell) + kStrip[gl_VertexID]) * voxelSize;
  gl_Position = viewProjection * vec4(worldPosition, 1.0);
  colour = classColours[cls];
}
