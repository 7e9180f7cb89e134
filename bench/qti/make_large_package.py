"""Writes a QTI 2.1 package of N items, each with an image of its own, with
qti-package-maker (the third-party tool the import tests use): the package
`scripts/bench --import` times.

usage: python make_large_package.py OUT.zip [N]
"""

import os
import random
import struct
import sys
import tempfile
import zlib

from qti_package_maker import package_interface


def png(width, height, seed):
    """A chart-like image: a gradient, bars and a little noise (about 20 KB)."""
    rng = random.Random(seed)
    bars = [rng.randrange(height // 4, height) for _ in range(8)]
    rows = []
    for y in range(height):
        row = bytearray(b"\x00")
        for x in range(width):
            bar = bars[x * len(bars) // width]
            inside = height - y < bar and (x % (width // len(bars))) > 6
            base = (40, 90, 160) if inside else (235, 235, 235 - y // 8)
            noise = rng.randrange(0, 6)
            row += bytes(min(255, c + noise) for c in base)
        rows.append(bytes(row))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 6)) + chunk(b"IEND", b""))


def main():
    out = os.path.abspath(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    media = tempfile.mkdtemp()
    bank = package_interface.QTIPackageInterface("bench-%d-items" % count, allow_mixed=True)
    bank.item_bank.media_base_dir = media
    for n in range(count):
        name = "figure-%04d.png" % n
        with open(os.path.join(media, name), "wb") as image:
            image.write(png(320, 200, n))
        stem = "Item %d: which bar of the chart is tallest? <img src=\"%s\" alt=\"chart %d\"/>" % (n, name, n)
        choices = ["Bar %d" % b for b in range(1, 6)]
        if n % 3 == 0:
            bank.add_item("MA", (stem, choices, choices[1:3]))
        elif n % 3 == 1:
            bank.add_item("MC", (stem, choices, choices[n % 5]))
        else:
            bank.add_item("FIB", ("Item %d: the chart <img src=\"%s\" alt=\"chart %d\"/> shows ____ bars." % (n, name, n), ["8", "eight"]))
    bank.save_package("blackboard_qti_v2_1", out)


if __name__ == "__main__":
    main()
