"""The game state machine: turns, rolls, holds, scoring, the end, and refusals."""

from __future__ import annotations

import random

import pytest

from games import rules
from games.rules import (
    GameState,
    IllegalMove,
    InvalidOptions,
    RandomDice,
    ScriptedDice,
    TableOptions,
)


def play_turn(state: GameState, faces: list[int], key: str) -> GameState:
    """The player to move rolls ``faces`` once and scores ``key``."""
    player = state.current_player
    state = rules.roll(state, player, ScriptedDice(faces))
    return rules.score(state, player, key)


def refused(state: GameState, code: str, action) -> IllegalMove:
    """Assert ``action`` raises IllegalMove ``code`` and leaves ``state`` unchanged."""
    before = state.to_dict()
    with pytest.raises(IllegalMove) as error:
        action()
    assert error.value.code == code
    assert state.to_dict() == before
    return error.value


def test_turns_go_round_the_table() -> None:
    state = rules.new_game("yatzy", [[0], [1], [2]])
    seen = []
    for _ in range(4):
        seen.append(state.current_player)
        state = play_turn(state, [1, 2, 3, 4, 6], state.open_categories()[-1])
    assert seen == [0, 1, 2, 0]


def test_team_members_take_the_team_turns_in_rotation() -> None:
    state = rules.new_game("yatzy", [[0, 2], [1, 3]], TableOptions(upper_only=True))
    seen = []
    for _ in range(6):
        seen.append((state.current_index, state.current_player))
        state = play_turn(state, [1, 1, 2, 3, 4], state.open_categories()[0])
    assert seen == [(0, 0), (1, 1), (0, 2), (1, 3), (0, 0), (1, 1)]
    assert state.scorecards[0].points() == {"ones": 2, "twos": 2, "threes": 3}


def test_rolls_replace_only_the_dice_not_held() -> None:
    state = rules.new_game("yatzy", [[0]])
    state = rules.roll(state, 0, ScriptedDice([6, 6, 1, 2, 3]))
    state = rules.hold(state, 0, [0, 1])
    state = rules.roll(state, 0, ScriptedDice([6, 4, 5]))
    assert state.dice == (6, 6, 6, 4, 5)
    assert state.held == (0, 1) and state.roll_number == 2
    state = rules.roll(state, 0, ScriptedDice([6, 6]), held=[0, 1, 2])
    assert state.dice == (6, 6, 6, 6, 6)


def test_it_refuses_a_fourth_roll() -> None:
    state = rules.new_game("yatzy", [[0]])
    for _ in range(3):
        state = rules.roll(state, 0, RandomDice(random.Random(1)))
    error = refused(
        state, "no_rolls_left", lambda: rules.roll(state, 0, RandomDice(random.Random(1)))
    )
    assert "used all three rolls" in str(error)


def test_it_refuses_scoring_before_the_first_roll() -> None:
    state = rules.new_game("yatzy", [[0]])
    refused(state, "not_rolled", lambda: rules.score(state, 0, "chance"))
    refused(state, "not_rolled", lambda: rules.hold(state, 0, [1]))


def test_it_refuses_a_player_out_of_turn() -> None:
    state = rules.new_game("yatzy", [[0], [1]])
    refused(state, "not_your_turn", lambda: rules.roll(state, 1, RandomDice(random.Random(1))))


def test_it_refuses_a_used_category() -> None:
    state = play_turn(rules.new_game("yatzy", [[0]]), [1, 2, 3, 4, 6], "chance")
    state = rules.roll(state, 0, ScriptedDice([1, 1, 1, 1, 1]))
    error = refused(state, "category_used", lambda: rules.score(state, 0, "chance"))
    assert str(error) == "Chance is already used: choose another category."


def test_it_refuses_unknown_categories_and_malformed_holds() -> None:
    state = rules.roll(rules.new_game("yatzy", [[0]]), 0, RandomDice(random.Random(2)))
    with pytest.raises(rules.UnknownCategory):
        rules.score(state, 0, "three_pairs")
    for held in ([5], [-1], [0, 0], ["1"], [True], None):
        refused(state, "bad_hold", lambda held=held: rules.hold(state, 0, held))


def test_it_refuses_rolling_with_every_die_held() -> None:
    state = rules.roll(rules.new_game("yatzy", [[0]]), 0, RandomDice(random.Random(3)))
    state = rules.hold(state, 0, range(5))
    refused(state, "all_held", lambda: rules.roll(state, 0, RandomDice(random.Random(3))))


def test_a_game_ends_after_rounds_times_scorecards_turns_and_then_refuses_all() -> None:
    state = rules.new_game("yatzy", [[0], [1]], TableOptions(upper_only=True))
    turns = 0
    while not state.is_finished:
        state = play_turn(state, [1, 2, 3, 4, 5], state.open_categories()[0])
        turns += 1
    assert turns == 6 * 2
    assert state.current_player is None
    refused(state, "game_over", lambda: rules.roll(state, 0, RandomDice(random.Random(1))))
    refused(state, "game_over", lambda: rules.score(state, 0, "ones"))


def test_equal_totals_share_a_place() -> None:
    state = rules.new_game("yatzy", [[0], [1], [2]], TableOptions(upper_only=True))
    faces = {0: [6, 6, 6, 6, 6], 1: [6, 6, 6, 6, 6], 2: [1, 1, 1, 1, 1]}
    while not state.is_finished:
        state = play_turn(state, faces[state.current_player], state.open_categories()[-1])
    assert [(rank, index) for rank, index, _total in state.ranking()] == [(1, 0), (1, 1), (3, 2)]


def test_forced_order_allows_only_the_next_category() -> None:
    state = rules.new_game("maxi_yatzy", [[0]], TableOptions(forced_order=True))
    state = rules.roll(state, 0, ScriptedDice([6] * 6))
    assert rules.scoring_options(state) == {"ones": 0}
    error = refused(state, "forced_order", lambda: rules.score(state, 0, "maxi_yatzy"))
    assert "must go in Ones" in str(error)


def test_a_declared_target_takes_the_score_and_cannot_change() -> None:
    state = rules.new_game("yatzy", [[0]], TableOptions(declared_target=True))
    state = rules.roll(state, 0, ScriptedDice([6, 6, 6, 1, 2]))
    refused(state, "target_required", lambda: rules.roll(state, 0, RandomDice(random.Random(1))))
    refused(state, "target_required", lambda: rules.score(state, 0, "sixes"))
    state = rules.declare(state, 0, "yatzy")
    refused(state, "target_fixed", lambda: rules.declare(state, 0, "sixes"))
    refused(state, "not_target", lambda: rules.score(state, 0, "sixes"))
    state = rules.roll(state, 0, ScriptedDice([6, 6]), held=[0, 1, 2])
    state = rules.score(state, 0, "yatzy")
    assert state.scorecards[0].points() == {"yatzy": 50}


def test_auto_first_roll_rolls_as_each_turn_begins() -> None:
    rng = RandomDice(random.Random(5))
    state = rules.new_game("yatzy", [[0], [1]], TableOptions(auto_first_roll=True), rng)
    assert state.roll_number == 1
    state = rules.score(state, 0, "chance", rng)
    assert state.current_player == 1 and state.roll_number == 1
    with pytest.raises(ValueError):
        rules.new_game("yatzy", [[0]], TableOptions(auto_first_roll=True))


@pytest.mark.parametrize(
    ("ruleset", "options", "says"),
    [
        ("yatzy", TableOptions(forced_order=True, declared_target=True), "Forced order"),
        ("yahtzee", TableOptions(upper_bonus=25), "not a choice"),
        ("yatzy", TableOptions(upper_bonus=35), "not a choice"),
        ("yatzy", TableOptions(yahtzee_bonus=False), "only be switched off in American"),
    ],
)
def test_options_that_make_no_sense_are_refused(
    ruleset: str, options: TableOptions, says: str
) -> None:
    with pytest.raises(InvalidOptions, match=says):
        rules.new_game(ruleset, [[0]], options)


@pytest.mark.parametrize(
    "scorecards", [[], [[0]] * 17, [[0], [0]], [[0], [2]], [[0, 1, 2, 3, 4, 5, 6, 7, 8]]]
)
def test_malformed_tables_are_refused(scorecards: list[list[int]]) -> None:
    with pytest.raises(InvalidOptions):
        rules.new_game("yatzy", scorecards)


def test_options_combine_where_they_make_sense() -> None:
    options = TableOptions(forced_order=True, upper_only=True, auto_first_roll=True)
    state = rules.new_game("maxi_yatzy", [[0, 1], [2]], options, RandomDice(random.Random(1)))
    assert state.rounds == 6 and state.dice_count == 6 and state.roll_number == 1


def test_skipping_a_turn_scratches_the_lowest_value_open_category() -> None:
    state = rules.new_game("yatzy", [[0], [1]])
    state = rules.skip_turn(state)
    assert state.scorecards[0].points() == {"ones": 0}
    state = play_turn(state, [1, 1, 1, 1, 1], "ones")
    state = rules.skip_turn(state)
    assert state.scorecards[0].points() == {"ones": 0, "twos": 0}


def test_upper_bonus_can_be_25_in_yatzy() -> None:
    state = rules.new_game("yatzy", [[0]], TableOptions(upper_only=True, upper_bonus=25))
    for face, key in enumerate(rules.get_ruleset("yatzy").keys[:6], start=1):
        state = play_turn(state, [face] * 4 + [1 if face > 1 else 2], key)
    totals = state.totals(0)
    assert (totals.upper, totals.bonus, totals.total) == (4 + 8 + 12 + 16 + 20 + 24, 25, 109)


def test_the_bonus_pace_is_three_of_each_face_where_the_line_is_63() -> None:
    state = rules.new_game("yatzy", [[0]], TableOptions(upper_only=True))
    state = play_turn(state, [4, 4, 4, 4, 1], "fours")  # 16 against 12
    state = play_turn(state, [1, 1, 2, 3, 4], "ones")  # 2 against 3
    assert state.totals(0).bonus_pace == +3


def test_the_bonus_pace_of_maxi_yatzy_is_against_its_line_of_75() -> None:
    state = rules.new_game("maxi_yatzy", [[0]], TableOptions(upper_only=True))
    keys = rules.get_ruleset("maxi_yatzy").keys[:6]
    counts = [4, 4, 4, 4, 3, 3]  # 4 + 8 + 12 + 16 + 15 + 18 = 73: short of 75
    for face, (key, count) in enumerate(zip(keys, counts, strict=True), start=1):
        other = 1 if face != 1 else 2
        state = play_turn(state, [face] * count + [other] * (6 - count), key)
        if face == 1:
            assert state.totals(0).bonus_pace == 0  # 4 against 75/21 of a one

    totals = state.totals(0)
    assert (totals.upper, totals.bonus, totals.bonus_pace) == (73, 0, -2)  # was +10


def test_a_move_as_data_plays_as_the_engine_call_it_names() -> None:
    """``rules.apply`` is how the table, the computer players and the replay play a move:
    a roll keeping dice, a hold, a declaration, a score and a skip each do what the
    engine's own call does."""
    Move = rules.Move
    state = rules.new_game("yatzy", [[0], [1]], TableOptions(declared_target=True))
    state = rules.apply(state, 0, Move("roll"), ScriptedDice([6, 6, 2, 3, 6]))
    assert state.dice == (6, 6, 2, 3, 6)
    state = rules.apply(state, 0, Move("hold", (0, 1)), None)
    assert state.held == (0, 1)
    state = rules.apply(state, 0, Move("declare", category="sixes"), None)
    assert state.target == "sixes"
    state = rules.apply(state, 0, Move("roll", (0, 1, 4)), ScriptedDice([6, 1]))
    assert state.dice == (6, 6, 6, 1, 6)
    state = rules.apply(state, 0, Move("score", category="sixes"), None)
    assert state.current_player == 1
    assert state.scorecards[0].points() == {"sixes": 24}
    state = rules.apply(state, 1, Move("skip"), None)
    assert state.current_player == 0
    with pytest.raises(ValueError, match="unknown move"):
        rules.apply(state, 0, Move("shout"), None)
