"""``manage.py draw_icons``: the PNG icons a phone puts on its home screen, rendered
from the SVG icons in ``static/img/`` (``icon.svg``: a die on the site's green, in a
rounded square; ``icon-maskable.svg``: the same die in the middle of a square the phone
cuts to its own shape) by CairoSVG. The PNGs are committed, so the site itself needs no
imaging library: run this (a development dependency, with Cairo's ``libcairo2``) after
changing an SVG."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

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
        # imported here: Cairo is a development dependency, not one of the site's
        import cairosvg

        source = Path(settings.BASE_DIR) / "static" / "img"
        into = into or source
        for name, (size, svg) in ICONS.items():
            cairosvg.svg2png(
                url=str(source / svg),
                write_to=str(into / name),
                output_width=size,
                output_height=size,
            )
            self.stdout.write(f"{into / name}: {size}x{size} from {svg}")
