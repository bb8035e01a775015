"""The solver's late game against a brute force written apart from it: plain Python
expectimax over every roll and keep, scored by the rules engine, for positions with
one or two categories left (Maxi Yatzy's six dice and bonus at 75 included)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import pytest

from games import rules
from games.strategy.solver import Solver, Variant


@cache
def outcomes(dice: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every roll of ``dice`` dice, sorted, with its chance."""
    found = []
    for faces in combinations_with_replacement(range(1, 7), dice):
        ways = factorial(dice)
        for count in Counter(faces).values():
            ways //= factorial(count)
        found.append((faces, ways / 6**dice))
    return tuple(found)


def keeps_of(roll: tuple[int, ...]) -> set[tuple[int, ...]]:
    kept: set[tuple[int, ...]] = {()}
    for face in roll:
        kept |= {tuple(sorted((*keep, face))) for keep in kept}
    return kept


class BruteForce:
    """Expected points to come of a scorecard with ``open`` categories and ``upper``
    points in its upper rows, playing each turn's every roll and keep best."""

    def __init__(self, ruleset: str) -> None:
        self.table = rules.get_ruleset(ruleset)
        self.dice = self.table.dice_count
        self.value = cache(self._value)
        self.stand = cache(self._stand)
        self.keep = cache(self._keep)

    def _value(self, open: frozenset[str], upper: int) -> float:
        if not open:
            return 0.0
        return sum(p * self.stand(roll, 2, open, upper) for roll, p in outcomes(self.dice))

    def _stand(self, roll: tuple[int, ...], rolls_left: int, open: frozenset[str], upper: int):
        best = max(self.score(key, roll, open, upper) for key in open)
        if rolls_left:
            for keep in keeps_of(roll) - {roll}:
                best = max(best, self.keep(keep, rolls_left, open, upper))
        return best

    def _keep(self, keep: tuple[int, ...], rolls_left: int, open: frozenset[str], upper: int):
        rerolled = outcomes(self.dice - len(keep))
        return sum(
            p * self.stand(tuple(sorted(keep + rest)), rolls_left - 1, open, upper)
            for rest, p in rerolled
        )

    def score(self, key: str, roll: tuple[int, ...], open: frozenset[str], upper: int) -> float:
        points = self.table.score(key, roll)
        after = upper
        if self.table.category(key).is_upper:
            after = upper + points
            if upper < self.table.bonus_threshold <= after:
                points += self.table.default_bonus
        capped = min(after, self.table.bonus_threshold)
        return points + self.value(open - {key}, capped)


@pytest.fixture(scope="module")
def late_game() -> dict[str, Solver]:
    """The last two layers of each rule set, solved by the solver alone."""
    solvers = {}
    for ruleset in ("maxi_yatzy", "yatzy"):
        solver = Solver(Variant(ruleset))
        solver.build(workers=1, down_to=solver.count - 2)
        solvers[ruleset] = solver
    return solvers


@pytest.mark.parametrize(
    ("ruleset", "left", "upper"),
    [
        ("maxi_yatzy", ("sixes",), 70),  # the bonus at 75 within reach of one sixes
        ("maxi_yatzy", ("maxi_yatzy",), 75),
        ("maxi_yatzy", ("sixes", "maxi_yatzy"), 60),
        ("maxi_yatzy", ("full_straight", "tower"), 40),
        ("maxi_yatzy", ("fives", "house"), 72),
        ("maxi_yatzy", ("ones", "tower"), 30),  # the bonus out of reach: level 0's value
        ("yatzy", ("twos", "chance"), 20),
        ("yatzy", ("sixes", "yatzy"), 50),
        ("yatzy", ("small_straight", "large_straight"), 63),
    ],
)
def test_the_late_game_is_worth_what_a_brute_force_finds(
    late_game: dict[str, Solver], ruleset: str, left: tuple[str, ...], upper: int
) -> None:
    solver = late_game[ruleset]
    keys = solver.variant.keys
    mask = sum(1 << c for c, key in enumerate(keys) if key not in left)

    expected = BruteForce(ruleset).value(frozenset(left), upper)

    assert solver.value(mask, upper, 0) == pytest.approx(expected, abs=1e-4)
