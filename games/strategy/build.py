"""Build the solver's value tables: ``python -m games.strategy.build [--variant ...]``.

Without arguments it builds Scandinavian Yatzy and American Yahtzee with their default
options (the tables the site's advice and computer players use first); the others are
built when first asked for (small ones on the spot, the rest in a process of their own:
``tables.build_later``).
"""

from __future__ import annotations

import argparse

from games.strategy import tables
from games.strategy.solver import Variant

DEFAULT = [Variant("yatzy"), Variant("yahtzee")]


def variants_named(names: list[str]) -> list[Variant]:
    chosen = []
    for name in names:
        ruleset, *flags = name.split("-")
        chosen.append(
            Variant(
                ruleset,
                forced_order="forced" in flags,
                upper_only="upper" in flags,
                upper_bonus=25 if "bonus25" in flags else None,
                yahtzee_bonus="nobonus" not in flags,
            )
        )
    return chosen


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        help="e.g. yatzy, yahtzee-nobonus, yatzy-forced, maxi_yatzy-upper (repeatable)",
    )
    parser.add_argument("--if-missing", action="store_true", help="skip tables already built")
    args = parser.parse_args(argv)
    for variant in variants_named(args.variant) if args.variant else DEFAULT:
        if args.if_missing and tables.path_of(variant).exists():
            continue
        tables.build(variant)


if __name__ == "__main__":
    main()
