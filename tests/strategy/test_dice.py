from __future__ import annotations

import numpy as np
import pytest

from games.strategy.dice import best_keep, dice_space, expect


@pytest.mark.parametrize(
    ("count", "keeps", "rolls", "straight", "chance"),
    [(5, 462, 252, (1, 2, 3, 4, 5), 120 / 6**5), (6, 924, 462, (1, 2, 3, 4, 5, 6), 720 / 6**6)],
)
def test_rolls_and_keeps_are_the_multisets_of_the_dice(
    count: int, keeps: int, rolls: int, straight: tuple[int, ...], chance: float
) -> None:
    space = dice_space(count)

    assert (len(space.keeps), len(space.rolls)) == (keeps, rolls)
    assert space.roll_probability.sum() == pytest.approx(1.0)
    column = space.rolls.tolist().index(space.index[straight])
    assert space.roll_probability[column] == pytest.approx(chance)


def test_keeping_nothing_is_worth_the_average_roll() -> None:
    space = dice_space(5)
    values = np.array([[float(sum(space.keeps[r])) for r in space.rolls]])

    keep_values = expect(space, values)

    assert keep_values[0, space.index[()]] == pytest.approx(17.5)
    assert keep_values[0, space.index[(6, 6)]] == pytest.approx(12 + 10.5)


def test_the_best_keep_is_found_among_every_sub_multiset() -> None:
    space = dice_space(5)
    keep_values = np.zeros((1, len(space.keeps)))
    keep_values[0, space.index[(2, 6)]] = 5.0

    best = best_keep(space, keep_values)[0]

    roll_of = {space.keeps[r]: i for i, r in enumerate(space.rolls)}
    assert best[roll_of[(1, 2, 3, 4, 6)]] == 5.0
    assert best[roll_of[(1, 2, 3, 4, 5)]] == 0.0
