"""Declared targets: the shortcuts of ``declared.target_rows`` against the same turn
solved over the whole roll, and the solver against its own policy played out."""

from __future__ import annotations

import numpy as np
import pytest

from games.strategy import declared
from games.strategy.solver import Solver, Variant


def monotone_tables(solver: Solver) -> None:
    """Made-up values with the shape of real ones: more upper points are never worth
    less (the bonus at the threshold), a Yahtzee box of 50 never less than one of 0."""
    rows, levels, boxes = solver.values.shape
    rng = np.random.default_rng(7)
    solver.values[:] = rng.uniform(0, 200, size=(rows, 1, 1)).astype(np.float32)
    upper = 0.4 * np.arange(levels) + np.where(np.arange(levels) >= levels - 1, 30, 0)
    solver.values += upper.astype(np.float32)[None, :, None]
    solver.values += 45 * np.arange(boxes, dtype=np.float32)[None, None, :]


@pytest.mark.parametrize(
    "variant",
    [
        Variant("yahtzee", declared_target=True),  # joker points and Yahtzee bonuses
        Variant("yahtzee", declared_target=True, yahtzee_bonus=False),
        Variant("maxi_yatzy", declared_target=True),
    ],
    ids=lambda variant: variant.name,
)
def test_each_target_is_worth_what_aiming_at_it_over_the_whole_roll_gives(
    variant: Variant,
) -> None:
    solver = declared.DeclaredSolver(variant)
    monotone_tables(solver)
    rng = np.random.default_rng(1)
    masks = rng.integers(0, (1 << solver.count) - 1, size=300)
    ups = rng.integers(0, solver.levels, size=300)
    boxes = rng.integers(0, solver.boxes, size=300) * ((masks >> max(variant.yahtzee_index, 0)) & 1)

    targets, offset = declared.target_rows(solver, masks, ups, boxes)

    open_now = solver.open_categories(masks)
    for c in range(solver.count):
        here = np.flatnonzero(open_now[c])
        aimed = declared.aimed_rows(solver, c, masks[here], ups[here], boxes[here], offset[here])
        np.testing.assert_allclose(targets[c][:, here], aimed, atol=1e-4)
        assert np.all(np.isneginf(targets[c][:, ~open_now[c]]))
