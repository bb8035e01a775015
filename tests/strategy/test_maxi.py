"""Full Maxi Yatzy played by its solved tables through the rules engine, with and
without a declared target. Their tables are built by hand (``manage.py solve --variant
maxi_yatzy``, ``--variant maxi_yatzy-declared``: minutes of both cores), never by the
tests: a variant whose table is missing is skipped."""

from __future__ import annotations

import random
import statistics

import pytest

from games import rules
from games.strategy import tables
from games.strategy.solver import Variant
from tests.strategy.test_solver import play_optimally


@pytest.mark.parametrize(
    "options",
    [rules.TableOptions(), rules.TableOptions(declared_target=True)],
    ids=["maxi_yatzy", "maxi_yatzy-declared"],
)
def test_perfect_maxi_yatzy_scores_what_the_solver_expects(options: rules.TableOptions) -> None:
    variant = Variant.of("maxi_yatzy", options)
    if not tables.ready(variant):
        pytest.skip(f"no {variant.name} table: manage.py solve --variant {variant.name}")
    solver = tables.load(variant)
    assert solver is not None
    rng = random.Random(2036)

    scores = [play_optimally(options, "maxi_yatzy", rng) for _ in range(300)]

    mean, error = statistics.fmean(scores), statistics.stdev(scores) / len(scores) ** 0.5
    assert abs(mean - solver.expected_score) < 2 * error, (mean, solver.expected_score, error)
