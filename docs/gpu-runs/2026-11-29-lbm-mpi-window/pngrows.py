# The rows where two PNG files (8-bit RGB or RGBA, not interlaced) differ, printed as ranges.
import struct, sys, zlib

def rows(path):
    data = open(path, 'rb').read()
    pos, idat, width, height, channels = 8, b'', 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour = struct.unpack('>IIBB', body[:10])
            channels = {2: 3, 6: 4}[colour]
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw, stride, out, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(bytes(line)); previous = line
    return (width, height), out

(sa, a), (sb, b) = rows(sys.argv[1]), rows(sys.argv[2])
if sa != sb: sys.exit(f'sizes differ: {sa} {sb}')
diff = [y for y in range(len(a)) if a[y] != b[y]]
ranges, start = [], None
for i, y in enumerate(diff):
    if start is None: start = y
    if i + 1 == len(diff) or diff[i + 1] != y + 1: ranges.append((start, y)); start = None
print(f'{sa[0]}x{sa[1]}: {len(diff)} rows differ', ranges)
