"""Build the solver's value tables: ``python -m games.strategy.build [--variant ...]``.

Without arguments it builds Scandinavian Yatzy and American Yahtzee with their default
options (the tables the site's advice and computer players use first); the others are
built when first asked for (small ones on the spot, the rest in a process of their own:
``tables.build_later``), except full Maxi Yatzy (plain or declared), built only when
asked for by name.
"""

from __future__ import annotations

import argparse
import sys
from functools import cache
from itertools import product

from games import rules
from games.strategy import tables
from games.strategy.solver import Variant

DEFAULT = [Variant("yatzy"), Variant("yahtzee")]


class UnknownVariant(ValueError):
    """A variant name that names no table the site can play."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"{name!r} is not a variant the site plays. The valid ones are: "
            + ", ".join(valid_variants())
        )


@cache
def valid_variants() -> dict[str, Variant]:
    """Every variant a table can play, by its name: the rules and the options that
    change play, as ``Variant.of`` names them (an option that changes nothing on a
    rule set, such as "nobonus" on Scandinavian Yatzy, names no variant)."""
    found: dict[str, Variant] = {}
    for table in rules.RULESETS.values():
        yes_no = (False, True)
        bonuses: tuple[int | None, ...] = (None, *table.bonus_values[1:])
        for forced, declared, upper, bonus, extra in product(
            yes_no, yes_no, yes_no, bonuses, (True, False)
        ):
            options = rules.TableOptions(
                forced_order=forced,
                declared_target=declared,
                upper_only=upper,
                upper_bonus=bonus,
                yahtzee_bonus=extra,
            )
            try:
                options.validate(table)
            except rules.InvalidOptions:
                continue
            variant = Variant.of(table.key, options)
            found.setdefault(variant.name, variant)
    return found


def variants_named(names: list[str]) -> list[Variant]:
    """The variants of these names; ``UnknownVariant`` for a name that is not one."""
    known = valid_variants()
    for name in names:
        if name not in known:
            raise UnknownVariant(name)
    return [known[name] for name in names]


def run(variants: list[Variant], if_missing: bool, out: tables.Output) -> None:
    """Build ``variants`` (skipping those built already, ``if_missing``), saying what
    each will cost before it starts and what it cost at the end."""
    for variant in variants:
        if if_missing and tables.path_of(variant).exists():
            continue
        out.write(tables.estimate(variant) + "\n")
        out.flush()
        tables.build(variant, out=out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        help="e.g. yatzy, yahtzee-nobonus, yatzy-forced, maxi_yatzy (repeatable)",
    )
    parser.add_argument("--if-missing", action="store_true", help="skip tables already built")
    args = parser.parse_args(argv)
    try:
        variants = variants_named(args.variant) if args.variant else DEFAULT
    except UnknownVariant as refused:
        parser.error(str(refused))
    run(variants, args.if_missing, sys.stdout)


if __name__ == "__main__":
    main()
