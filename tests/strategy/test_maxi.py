"""Full Maxi Yatzy played by its solved table through the rules engine. Its table is
built by hand (``manage.py solve --variant maxi_yatzy``, ~45 minutes of CPU), never by
the tests: without it this module is skipped."""

from __future__ import annotations

import random
import statistics

import pytest

from games import rules
from games.strategy import tables
from games.strategy.solver import Variant
from tests.strategy.test_solver import play_optimally

MAXI = Variant("maxi_yatzy")

pytestmark = pytest.mark.skipif(
    not tables.ready(MAXI), reason="no full Maxi Yatzy table: manage.py solve --variant maxi_yatzy"
)


def test_perfect_maxi_yatzy_scores_what_the_solver_expects() -> None:
    solver = tables.load(MAXI)
    assert solver is not None
    rng = random.Random(2036)

    scores = [play_optimally(rules.TableOptions(), "maxi_yatzy", rng) for _ in range(300)]

    mean, error = statistics.fmean(scores), statistics.stdev(scores) / len(scores) ** 0.5
    assert abs(mean - solver.expected_score) < 2 * error, (mean, solver.expected_score, error)
