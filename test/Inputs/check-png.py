#!/usr/bin/env python3
"""Checks that a file is a PNG of a rendered page, not an empty one.

  check-png.py FILE.png MIN_WIDTH MIN_HEIGHT

Prints 'png WIDTHxHEIGHT' and fails if the signature is wrong, the image is
smaller than asked, or it has fewer than 16 colours (a blank or error page
has a handful).
"""
import struct
import sys
import zlib


def rows(raw, width, height, bpp):
    """The pixel rows, PNG's per-row filters undone."""
    stride = width * bpp
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                row[i] = (row[i] + a) & 0xFF
            elif kind == 2:
                row[i] = (row[i] + b) & 0xFF
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                row[i] = (row[i] + pred) & 0xFF
        yield row
        prev = row


def main():
    path, min_w, min_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    if width < min_w or height < min_h:
        sys.exit("%s: %dx%d, smaller than %dx%d" % (path, width, height,
                                                    min_w, min_h))
    if depth != 8 or colour not in (2, 6):
        sys.exit("%s: unexpected pixel format" % path)
    colours = set()
    for row in rows(zlib.decompress(idat), width, height,
                    3 if colour == 2 else 4):
        for x in range(0, len(row), len(row) // 300 or 1):
            colours.add(bytes(row[x - x % 3:x - x % 3 + 3]))
    if len(colours) < 16:
        sys.exit("%s: %d colours: the page looks empty" % (path, len(colours)))
    print("png %dx%d" % (width, height))


if __name__ == "__main__":
    main()
