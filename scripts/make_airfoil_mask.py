#!/usr/bin/env python3
"""Draws assets/masks/airfoil.png: a NACA 0012 wing section at 8 degrees of attack, black on white,
for the LBM module's obstacle_image (a 4:1 picture, as the airfoil preset's lattice). Run from the
project root; it needs only Python."""
import math
import struct
import zlib

WIDTH, HEIGHT = 1024, 256
CHORD, LEAD_X, LEAD_Y, ATTACK = 170.0, 230.0, 136.0, math.radians(8)


def thickness(x):  # NACA 0012 half-thickness at x in [0, 1] of the chord (closed trailing edge)
    return 0.6 * (0.2969 * math.sqrt(x) - 0.1260 * x - 0.3516 * x**2 + 0.2843 * x**3 - 0.1036 * x**4)


def inside(px, py):
    # Into the section's frame: x along the chord from the leading edge, y up; the wing is turned
    # nose up by the angle of attack (the flow comes from the left).
    dx, dy = px - LEAD_X, LEAD_Y - py
    c, s = math.cos(ATTACK), math.sin(ATTACK)
    x, y = (dx * c - dy * s) / CHORD, (dx * s + dy * c) / CHORD
    return 0 <= x <= 1 and abs(y) <= thickness(x)


rows = b"".join(
    b"\0" + bytes(0 if inside(x + 0.5, y + 0.5) else 255 for x in range(WIDTH)) for y in range(HEIGHT)
)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 0, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
with open("assets/masks/airfoil.png", "wb") as out:
    out.write(png)
