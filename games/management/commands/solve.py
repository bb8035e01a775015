"""``manage.py solve``: build the solver's value tables (see games/strategy/build.py)."""

from __future__ import annotations

import subprocess
import sys

from django.core.management.base import BaseCommand, CommandError

from games.strategy import build, tables


class Command(BaseCommand):
    help = (
        "Build the optimal-play value tables: Yatzy and Yahtzee, or the variants named"
        " (manage.py solve --variant maxi_yatzy)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--variant",
            action="append",
            default=[],
            help="a variant to build (repeatable): " + ", ".join(build.valid_variants()),
        )
        parser.add_argument("--if-missing", action="store_true")
        parser.add_argument(
            "--background",
            action="store_true",
            help="build in a detached process and return at once (the site serves meanwhile);"
            " not with YATZY_BUILD_TABLES=0",
        )

    def handle(self, *args, **options) -> None:
        try:
            variants = build.variants_named(options["variant"]) or build.DEFAULT
        except build.UnknownVariant as refused:
            raise CommandError(str(refused)) from refused
        argv = [f"--variant={v}" for v in options["variant"]]
        argv += ["--if-missing"] if options["if_missing"] else []
        if options["background"]:
            if not tables.builds_missing():
                # the pages say nothing builds the missing tables here: nor does make run
                self.stdout.write(
                    "YATZY_BUILD_TABLES=0: not building the solver's tables"
                    " (manage.py solve without --background builds them)."
                )
                return
            subprocess.Popen(
                [sys.executable, "-m", "games.strategy.build", *argv],
                start_new_session=True,
                stdout=subprocess.DEVNULL,
            )
            self.stdout.write("Building the solver's tables in the background.")
            return
        build.run(variants, options["if_missing"], self.stdout)
