"""``manage.py draw_icons``: the PNG icons a phone puts on its home screen, drawn from
the SVG icons in ``static/img/`` (``icon.svg``: a die on the site's green, in a rounded
square; ``icon-maskable.svg``: the same die in the middle of a square the phone cuts to
its own shape). The PNGs are committed: run this after changing an SVG.

It draws what those SVGs use and nothing more (``rect`` with ``rx``, ``circle``, solid
fills, ``g`` to share a fill), with numpy, so that the site needs no imaging library;
an SVG with anything else is refused."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ElementTree
import zlib
from pathlib import Path

import numpy as np
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

SVG = "{http://www.w3.org/2000/svg}"

# Each PNG, its width in pixels, and the SVG it is drawn from
ICONS = {
    "icon-192.png": (192, "icon.svg"),
    "icon-512.png": (512, "icon.svg"),
    "icon-maskable-192.png": (192, "icon-maskable.svg"),
    "icon-maskable-512.png": (512, "icon-maskable.svg"),
    # iOS rounds the corners itself and shows transparency as black: the full square
    "apple-touch-icon.png": (180, "icon-maskable.svg"),
}


class Command(BaseCommand):
    help = "Draw the site's PNG icons (static/img/icon-*.png) from its SVG icons."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--into",
            type=Path,
            default=None,
            help="folder to write the PNGs to (default: static/img/, beside the SVGs)",
        )

    def handle(self, *args, into: Path | None, **options) -> None:
        source = Path(settings.BASE_DIR) / "static" / "img"
        into = into or source
        for name, (size, svg) in ICONS.items():
            pixels = draw(source / svg, size)
            (into / name).write_bytes(png(pixels))
            self.stdout.write(f"{into / name}: {size}x{size} from {svg}")


def draw(svg: Path, size: int) -> np.ndarray:
    """The SVG at ``size`` pixels square: RGBA, 0-255. Edges are smoothed by how much of
    each pixel a shape covers, from its distance to the shape's outline."""
    root = ElementTree.parse(svg).getroot()
    left, top, width, height = (float(v) for v in root.get("viewBox", "").split())
    if width != height:
        raise CommandError(f"{svg.name}: draw_icons draws square icons only")
    scale = size / width
    centres = (np.arange(size) + 0.5) / scale
    x, y = np.meshgrid(centres + left, centres + top)
    colour = np.zeros((size, size, 3))  # premultiplied by alpha
    alpha = np.zeros((size, size))
    for distance, fill in shapes(root, x, y, svg.name):
        cover = np.clip(0.5 - distance * scale, 0.0, 1.0)
        colour = colour * (1 - cover)[..., None] + cover[..., None] * np.array(fill)
        alpha = alpha * (1 - cover) + cover
    straight = np.divide(
        colour, alpha[..., None], out=np.zeros_like(colour), where=alpha[..., None] > 0
    )
    rgba = np.dstack([straight, alpha * 255])
    return np.round(rgba).astype(np.uint8)


def shapes(element, x: np.ndarray, y: np.ndarray, name: str, fill: str = "#000000"):
    """Each shape below ``element`` in drawing order: its signed distance at every
    pixel (negative inside) and its fill as RGB."""
    for child in element:
        tag = child.tag.removeprefix(SVG)
        own_fill = child.get("fill", fill)
        if tag == "g":
            yield from shapes(child, x, y, name, own_fill)
        elif tag == "rect":
            half_w, half_h = number(child, "width") / 2, number(child, "height") / 2
            corner = min(number(child, "rx"), half_w, half_h)
            dx = np.abs(x - number(child, "x") - half_w) - (half_w - corner)
            dy = np.abs(y - number(child, "y") - half_h) - (half_h - corner)
            outside = np.hypot(np.maximum(dx, 0), np.maximum(dy, 0))
            yield outside + np.minimum(np.maximum(dx, dy), 0) - corner, rgb(own_fill, name)
        elif tag == "circle":
            cx, cy, radius = (number(child, attribute) for attribute in ("cx", "cy", "r"))
            yield np.hypot(x - cx, y - cy) - radius, rgb(own_fill, name)
        else:
            raise CommandError(f"{name}: draw_icons draws rect, circle and g, not {tag}")


def number(element, attribute: str) -> float:
    return float(element.get(attribute, "0"))


def rgb(fill: str, name: str) -> tuple[int, int, int]:
    if len(fill) != 7 or not fill.startswith("#"):
        raise CommandError(f"{name}: draw_icons takes fills as #rrggbb, not {fill!r}")
    return int(fill[1:3], 16), int(fill[3:5], 16), int(fill[5:7], 16)


def png(pixels: np.ndarray) -> bytes:
    """An RGBA image as a PNG file (RGB where it is opaque throughout)."""
    if (pixels[..., 3] == 255).all():
        pixels, colour_type = pixels[..., :3], 2
    else:
        colour_type = 6
    height, width = pixels.shape[:2]
    rows = b"".join(b"\x00" + row.tobytes() for row in pixels)  # filter 0: none

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )
