"""The solver against the published record and against its own policy played out."""

from __future__ import annotations

import random
import statistics

import pytest

from games import rules
from games.strategy import advice
from games.strategy.solver import Variant
from tests.conftest import solved_tables


def test_optimal_yahtzee_scores_254_59_on_average() -> None:
    """Verhoeff's optimal solitaire Yahtzee (bonus and jokers); Glenn 2006: 254.59."""
    solver = solved_tables(Variant("yahtzee"))
    assert round(solver.expected_score, 2) == 254.59


def test_optimal_yatzy_and_its_forced_order_score_the_published_optima() -> None:
    """The published optima of Scandinavian Yatzy, 248.44, and of its forced order, 122.5586."""
    assert solved_tables(Variant("yatzy")).expected_score == pytest.approx(248.4400, abs=1e-4)
    forced = solved_tables(Variant("yatzy", forced_order=True))
    assert forced.expected_score == pytest.approx(122.5586, abs=1e-4)


def play_optimally(options: rules.TableOptions, ruleset: str, rng: random.Random) -> int:
    state = rules.new_game(ruleset, [[0]], options)
    while not state.is_finished:
        if state.roll_number == 0:
            state = rules.roll(state, 0, rules.RandomDice(rng))
            continue
        best = advice.advise(state).best
        if best.target is not None:
            state = rules.declare(state, 0, best.target)
        elif best.category is not None:
            state = rules.score(state, 0, best.category)
        else:
            state = rules.roll(state, 0, rules.RandomDice(rng), held=best.hold)
    return state.totals(0).total


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("yatzy", rules.TableOptions(upper_only=True)),
        ("yahtzee", rules.TableOptions(upper_only=True, forced_order=True)),
        ("yatzy", rules.TableOptions(upper_only=True, declared_target=True)),
    ],
)
def test_the_solver_expects_what_its_policy_scores_through_the_engine(
    ruleset: str, options: rules.TableOptions
) -> None:
    solver = solved_tables(Variant.of(ruleset, options))
    rng = random.Random(20261122)

    scores = [play_optimally(options, ruleset, rng) for _ in range(600)]

    mean, error = statistics.fmean(scores), statistics.stdev(scores) / len(scores) ** 0.5
    assert abs(mean - solver.expected_score) < 4 * error, (mean, solver.expected_score, error)


@pytest.fixture(scope="module")
def yatzy() -> None:
    solved_tables(Variant("yatzy"))


def test_with_four_sixes_at_the_first_roll_it_holds_the_sixes(yatzy: None) -> None:
    state = rules.roll(rules.new_game("yatzy", [[0]]), 0, rules.ScriptedDice([6, 3, 6, 6, 6]))

    best = advice.advise(state).best

    assert best.hold == (0, 2, 3, 4)


def test_with_a_small_straight_at_the_last_roll_it_scores_it(yatzy: None) -> None:
    state = rules.new_game("yatzy", [[0]])
    for faces in ([1, 1, 1, 1, 1], [2, 3, 4, 5, 1], [1, 2, 3, 4, 5]):
        state = rules.roll(state, 0, rules.ScriptedDice(faces), held=[])

    best = advice.advise(state).best

    assert state.roll_number == 3
    assert best.category == "small_straight"


def test_advice_ranks_choices_and_prices_a_mistake(yatzy: None) -> None:
    state = rules.roll(rules.new_game("yatzy", [[0]]), 0, rules.ScriptedDice([6, 6, 6, 6, 2]))

    ranked = advice.advise(state)
    chance = next(c for c in ranked.choices if c.category == "chance")

    expected = [c.expected for c in ranked.choices]
    assert expected == sorted(expected, reverse=True)
    assert ranked.loss(chance) > 0
    assert ranked.loss(ranked.best) == 0
