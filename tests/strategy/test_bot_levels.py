"""The three computer levels, played through the engine alone: each finishes every
rule set, and they are ordered by strength."""

from __future__ import annotations

import random
import statistics

import pytest

from games import rules
from games.strategy import bots, tables
from games.strategy.solver import Variant
from tests.conftest import solved_tables


def mean_score(ruleset: str, level: str, games: int) -> float:
    rng = random.Random(11)
    dice = rules.RandomDice(rng)
    finals = [
        bots.play(rules.new_game(ruleset, [[0]]), {0: level}, rng, dice) for _ in range(games)
    ]
    return statistics.fmean(state.totals(0).total for state in finals)


def test_levels_are_ordered_by_strength() -> None:
    solved_tables(Variant("yatzy"))

    beginner, good, perfect = (mean_score("yatzy", level, 150) for level in bots.LEVELS)

    assert beginner + 40 < good < perfect  # seeded: the same games every run


@pytest.mark.parametrize("ruleset", ["yatzy", "yahtzee", "maxi_yatzy"])
def test_a_bot_declares_then_plays_for_its_target(ruleset: str) -> None:
    state = rules.new_game(ruleset, [[0]], rules.TableOptions(declared_target=True))
    state = rules.roll(state, 0, rules.ScriptedDice(([6] * 4 + [1, 3])[: state.dice_count]))

    move = bots.choose_move(state, "good", random.Random(1))

    assert move.kind == "declare"
    assert move.category in {
        "sixes",
        "four_of_a_kind",
        "five_of_a_kind",
        "yatzy",
        "yahtzee",
        "maxi_yatzy",
    }


def test_the_beginner_sometimes_slips() -> None:
    state = rules.new_game("yatzy", [[0]])
    state = rules.roll(state, 0, rules.ScriptedDice([1, 2, 3, 4, 5]))
    state = rules.roll(state, 0, rules.ScriptedDice([1, 2, 3, 4, 5]), held=[])
    state = rules.roll(state, 0, rules.ScriptedDice([1, 2, 3, 4, 5]), held=[])
    rng = random.Random(5)

    chosen = {bots.choose_move(state, "beginner", rng).category for _ in range(100)}

    assert "small_straight" in chosen and len(chosen) > 1


@pytest.mark.parametrize(
    ("ruleset", "options", "played"),
    [
        ("maxi_yatzy", rules.TableOptions(), "by hand"),  # its table is built only by hand
        ("yatzy", rules.TableOptions(upper_only=True), "perfect"),  # solved on the spot
        ("yatzy", rules.TableOptions(upper_only=True, declared_target=True), "perfect"),
    ],
)
def test_a_move_says_the_level_it_was_chosen_at(
    ruleset: str, options: rules.TableOptions, played: str
) -> None:
    state = rules.new_game(ruleset, [[0]], options)
    state = rules.roll(state, 0, rules.ScriptedDice([6] * 6))
    if played == "by hand":  # perfect where someone has built it, else the good player's
        played = "perfect" if tables.ready(Variant(ruleset)) else "good"

    assert bots.choose_move(state, "perfect", random.Random(1)).level == played
    assert bots.choose_move(state, "good", random.Random(1)).level == "good"


def test_a_perfect_player_declares_the_target_the_solver_values_most() -> None:
    options = rules.TableOptions(upper_only=True, declared_target=True)
    state = rules.new_game("yatzy", [[0]], options)
    state = rules.roll(state, 0, rules.ScriptedDice([6, 6, 6, 2, 1]))

    move = bots.choose_move(state, "perfect", random.Random(1))

    assert (move.kind, move.category, move.level) == ("declare", "sixes", "perfect")
