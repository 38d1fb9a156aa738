#!/usr/bin/env python3
"""Writes the meshes shipped in assets/meshes, one per format the program reads:

- gear.obj: a spur gear of 18 teeth with a bore (a closed surface of genus one), its sides and
  faces written as quads and polygons, which the reader splits into triangles;
- spring.ply (binary, little-endian): a coil spring, a tube along a helix of four turns with
  capped ends;
- star.off: a stellated icosahedron, twenty spikes, a closed concave surface.

All are closed and consistently oriented, so a flood fill finds their inside. Run from the
repository root: python3 scripts/make_meshes.py
"""
import math
import os
import struct

OUT = os.path.join(os.path.dirname(__file__), "..", "assets", "meshes")


def gear(teeth=18, inner=0.35, root=0.8, tip=1.0, width=0.35):
    """Polygons (lists of vertex indices) and vertices of an extruded gear outline with a bore."""
    outline = []  # (radius, angle) going round, a tooth as root-tip-tip-root
    for t in range(teeth):
        a = 2 * math.pi * t / teeth
        step = 2 * math.pi / teeth
        for frac, r in ((0.0, root), (0.2, tip), (0.5, tip), (0.7, root)):
            outline.append((r, a + frac * step))
    n = len(outline)
    bore = [(inner, 2 * math.pi * i / n) for i in range(n)]
    vertices = []
    for z in (-width / 2, width / 2):
        for r, a in outline:
            vertices.append((r * math.cos(a), r * math.sin(a), z))
        for r, a in bore:
            vertices.append((r * math.cos(a), r * math.sin(a), z))
    # Index of outline point i / bore point i on the bottom (0) or top (1) face.
    o = lambda i, top: top * 2 * n + i % n
    b = lambda i, top: top * 2 * n + n + i % n
    faces = []
    for i in range(n):
        faces.append([o(i, 1), o(i + 1, 1), b(i + 1, 1), b(i, 1)])  # top ring, facing +z
        faces.append([o(i, 0), b(i, 0), b(i + 1, 0), o(i + 1, 0)])  # bottom ring, facing -z
        faces.append([o(i, 0), o(i + 1, 0), o(i + 1, 1), o(i, 1)])  # outer wall
        faces.append([b(i, 0), b(i, 1), b(i + 1, 1), b(i + 1, 0)])  # bore wall
    return vertices, faces


def spring(turns=4, radius=0.7, pitch=0.45, tube=0.14, around=16, per_turn=48):
    """Triangles and vertices of a tube along a helix, capped at both ends."""
    steps = turns * per_turn
    height = turns * pitch
    vertices, triangles = [], []
    for s in range(steps + 1):
        t = 2 * math.pi * s / per_turn
        centre = (radius * math.cos(t), radius * math.sin(t), s / steps * height - height / 2)
        # Frame: outward normal, and the binormal across the tangent.
        tangent = (-radius * math.sin(t), radius * math.cos(t), pitch / (2 * math.pi))
        length = math.sqrt(sum(c * c for c in tangent))
        tangent = tuple(c / length for c in tangent)
        normal = (math.cos(t), math.sin(t), 0.0)
        binormal = (
            tangent[1] * normal[2] - tangent[2] * normal[1],
            tangent[2] * normal[0] - tangent[0] * normal[2],
            tangent[0] * normal[1] - tangent[1] * normal[0],
        )
        for j in range(around):
            v = 2 * math.pi * j / around
            c, s_ = math.cos(v) * tube, math.sin(v) * tube
            vertices.append(tuple(centre[k] + normal[k] * c + binormal[k] * s_ for k in range(3)))
    ring = lambda s, j: s * around + j % around
    for s in range(steps):
        for j in range(around):
            triangles.append((ring(s, j), ring(s + 1, j), ring(s + 1, j + 1)))
            triangles.append((ring(s, j), ring(s + 1, j + 1), ring(s, j + 1)))
    for s, flip in ((0, False), (steps, True)):  # caps: a fan round each end's centre
        centre = tuple(sum(vertices[ring(s, j)][k] for j in range(around)) / around for k in range(3))
        vertices.append(centre)
        c = len(vertices) - 1
        for j in range(around):
            a, b = ring(s, j), ring(s, j + 1)
            triangles.append((c, b, a) if flip else (c, a, b))
    return vertices, triangles


def star(spike=1.9):
    """Triangles and vertices of an icosahedron with a spike raised on every face."""
    phi = (1 + math.sqrt(5)) / 2
    base = [(-1, phi, 0), (1, phi, 0), (-1, -phi, 0), (1, -phi, 0),
            (0, -1, phi), (0, 1, phi), (0, -1, -phi), (0, 1, -phi),
            (phi, 0, -1), (phi, 0, 1), (-phi, 0, -1), (-phi, 0, 1)]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
             (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
             (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    vertices = list(base)
    triangles = []
    for a, b, c in faces:
        centre = [sum(base[i][k] for i in (a, b, c)) / 3 for k in range(3)]
        vertices.append(tuple(x * spike for x in centre))
        p = len(vertices) - 1
        triangles += [(a, b, p), (b, c, p), (c, a, p)]
    return vertices, triangles


def write_obj(path, vertices, faces):
    with open(path, "w") as f:
        f.write("# warpscope: a spur gear with a bore (scripts/make_meshes.py)\n")
        for v in vertices:
            f.write("v %.6f %.6f %.6f\n" % v)
        for face in faces:
            f.write("f " + " ".join(str(i + 1) for i in face) + "\n")


def write_ply_binary(path, vertices, triangles):
    with open(path, "wb") as f:
        f.write(("ply\nformat binary_little_endian 1.0\n"
                 "comment warpscope: a coil spring (scripts/make_meshes.py)\n"
                 "element vertex %d\nproperty float x\nproperty float y\nproperty float z\n"
                 "element face %d\nproperty list uchar int vertex_indices\nend_header\n"
                 % (len(vertices), len(triangles))).encode())
        for v in vertices:
            f.write(struct.pack("<3f", *v))
        for t in triangles:
            f.write(struct.pack("<B3i", 3, *t))


def write_off(path, vertices, triangles):
    with open(path, "w") as f:
        f.write("OFF\n# warpscope: a stellated icosahedron (scripts/make_meshes.py)\n")
        f.write("%d %d 0\n" % (len(vertices), len(triangles)))
        for v in vertices:
            f.write("%.6f %.6f %.6f\n" % v)
        for t in triangles:
            f.write("3 %d %d %d\n" % t)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    write_obj(os.path.join(OUT, "gear.obj"), *gear())
    write_ply_binary(os.path.join(OUT, "spring.ply"), *spring())
    write_off(os.path.join(OUT, "star.off"), *star())
