"""Whole games with scripted dice, against totals computed by hand."""

from __future__ import annotations

import pytest

from games import rules
from games.rules import GameState, IllegalMove, TableOptions
from tests.rules.test_game import play_turn

YATZY_GAME = [
    ([1, 1, 1, 4, 5], "ones", 3),
    ([2, 2, 3, 4, 5], "twos", 4),
    ([3, 3, 3, 3, 1], "threes", 12),
    ([4, 4, 4, 2, 1], "fours", 12),
    ([5, 5, 5, 1, 2], "fives", 15),
    ([6, 6, 6, 6, 2], "sixes", 24),
    ([6, 6, 5, 5, 1], "one_pair", 12),
    ([6, 6, 5, 5, 1], "two_pairs", 22),
    ([4, 4, 4, 6, 6], "three_of_a_kind", 12),
    ([2, 2, 2, 2, 6], "four_of_a_kind", 8),
    ([5, 4, 3, 2, 1], "small_straight", 15),
    ([2, 3, 4, 5, 6], "large_straight", 20),
    ([3, 3, 5, 5, 5], "full_house", 21),
    ([6, 6, 6, 5, 4], "chance", 27),
    ([1, 2, 1, 1, 1], "yatzy", 0),
]


def play(state: GameState, script: list[tuple[list[int], str, int]]) -> GameState:
    for faces, key, points in script:
        index = state.current_index
        state = play_turn(state, faces, key)
        assert state.scorecards[index].points()[key] == points, key
    return state


def test_a_whole_game_of_yatzy() -> None:
    state = play(rules.new_game("yatzy", [[0]]), YATZY_GAME)

    totals = state.totals(0)
    assert state.is_finished
    assert (totals.upper, totals.bonus, totals.lower, totals.total) == (70, 50, 137, 257)


def test_a_whole_game_of_yatzy_with_the_25_bonus() -> None:
    state = play(rules.new_game("yatzy", [[0]], TableOptions(upper_bonus=25)), YATZY_GAME)
    assert state.totals(0).total == 232


YAHTZEE_GAME = [
    ([4, 4, 4, 4, 4], "yahtzee", 50),
    ([4, 4, 4, 4, 4], "fours", 20),  # joker: the matching upper box first
    ([4, 4, 4, 4, 4], "full_house", 25),  # joker: full value in a lower box
    ([1, 1, 2, 3, 4], "ones", 2),
    ([2, 2, 2, 1, 1], "twos", 6),
    ([3, 3, 3, 5, 6], "threes", 9),
    ([5, 5, 5, 5, 2], "fives", 20),
    ([6, 6, 6, 6, 1], "sixes", 24),
    ([6, 6, 6, 1, 2], "three_of_a_kind", 21),
    ([5, 5, 5, 5, 6], "four_of_a_kind", 26),
    ([1, 2, 3, 4, 6], "small_straight", 30),
    ([1, 2, 3, 4, 5], "large_straight", 40),
    ([6, 6, 5, 5, 4], "chance", 26),
]


def test_a_whole_game_of_yahtzee_with_bonuses_and_jokers() -> None:
    state = play(rules.new_game("yahtzee", [[0]]), YAHTZEE_GAME)

    totals = state.totals(0)
    assert (totals.upper, totals.bonus, totals.yahtzee_bonus) == (81, 35, 200)
    assert (totals.lower, totals.total) == (218, 534)


def test_without_the_yahtzee_bonus_extra_yahtzees_earn_only_their_box() -> None:
    state = play(rules.new_game("yahtzee", [[0]], TableOptions(yahtzee_bonus=False)), YAHTZEE_GAME)
    assert state.totals(0).total == 334


def test_a_scratched_yahtzee_box_earns_no_bonus_but_keeps_the_joker() -> None:
    state = play_turn(rules.new_game("yahtzee", [[0]]), [1, 2, 3, 4, 6], "yahtzee")
    state = rules.roll(state, 0, rules.ScriptedDice([3] * 5))
    assert rules.scoring_options(state) == {"threes": 15}
    state = rules.score(state, 0, "threes")
    state = rules.roll(state, 0, rules.ScriptedDice([3] * 5))
    assert rules.scoring_options(state)["large_straight"] == 40
    state = rules.score(state, 0, "large_straight")
    assert state.scorecards[0].yahtzee_bonuses == 0


def test_the_joker_refuses_a_lower_box_while_the_upper_one_is_open() -> None:
    state = play_turn(rules.new_game("yahtzee", [[0]]), [2] * 5, "yahtzee")
    state = rules.roll(state, 0, rules.ScriptedDice([2] * 5))
    before = state.to_dict()

    with pytest.raises(IllegalMove) as error:
        rules.score(state, 0, "chance")

    assert error.value.code == "joker"
    assert "must go in Twos" in str(error.value)
    assert state.to_dict() == before


def test_with_its_upper_box_and_every_lower_box_used_the_joker_scratches_an_upper_box() -> None:
    state = rules.new_game("yahtzee", [[0]])
    lower = [
        "yahtzee",
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "chance",
    ]
    for key in lower:
        state = play_turn(state, [6, 6, 6, 6, 6] if key == "yahtzee" else [1, 2, 3, 4, 6], key)
    state = play_turn(state, [6, 6, 6, 1, 2], "sixes")
    state = rules.roll(state, 0, rules.ScriptedDice([6] * 5))

    assert rules.scoring_options(state) == {
        key: 0 for key in ["ones", "twos", "threes", "fours", "fives"]
    }
    state = rules.score(state, 0, "fives")
    assert state.scorecards[0].points()["fives"] == 0
    assert state.scorecards[0].yahtzee_bonuses == 1


def test_a_short_game_of_maxi_yatzy() -> None:
    script = [
        ([1, 1, 1, 1, 2, 3], "ones", 4),
        ([2, 2, 2, 2, 2, 1], "twos", 10),
        ([3, 3, 3, 3, 1, 1], "threes", 12),
        ([4, 4, 4, 4, 1, 1], "fours", 16),
        ([5, 5, 5, 5, 1, 1], "fives", 20),
        ([6, 6, 6, 6, 1, 1], "sixes", 24),
    ]
    state = play(rules.new_game("maxi_yatzy", [[0]], TableOptions(upper_only=True)), script)
    totals = state.totals(0)
    assert (totals.upper, totals.bonus, totals.total) == (86, 50, 136)


def test_forced_order_plays_the_scorecard_top_to_bottom() -> None:
    state = play(rules.new_game("yatzy", [[0]], TableOptions(forced_order=True)), YATZY_GAME)
    assert state.totals(0).total == 257
    assert [key for key, _ in state.scorecards[0].entries] == [row[1] for row in YATZY_GAME]


def test_a_team_game_shares_one_scorecard() -> None:
    state = rules.new_game("yatzy", [[0, 2], [1, 3]], TableOptions(upper_only=True))
    players = []
    for faces, key, _points in YATZY_GAME[:6]:
        for _card in range(2):
            players.append(state.current_player)
            state = play_turn(state, faces, key)
    assert players == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]
    assert state.totals(0).total == state.totals(1).total == 70 + 50
    assert [rank for rank, _i, _t in state.ranking()] == [1, 1]


def test_the_joker_says_where_an_extra_yahtzee_goes_and_the_bonus_it_earns() -> None:
    """What the table says of an extra Yahtzee (RULES.md 2.2), case by case."""

    def fours() -> rules.ScriptedDice:
        return rules.ScriptedDice([4] * 5)

    state = rules.new_game("yahtzee", [[0]])
    assert rules.joker(rules.roll(state, 0, fours())) is None  # the Yahtzee box is open
    state = play_turn(state, [4] * 5, "yahtzee")
    assert rules.joker(rules.roll(state, 0, rules.ScriptedDice([4, 4, 4, 4, 1]))) is None

    rolled = rules.roll(state, 0, fours())
    assert rules.joker(rolled) == rules.Joker("upper", "fours", False, 100, False)
    rolled = rules.roll(rules.score(rolled, 0, "fours"), 0, fours())
    assert rules.joker(rolled) == rules.Joker("lower", "fours", True, 100, False)


def test_the_joker_of_a_scratched_yahtzee_box_or_a_table_without_the_bonus_earns_none() -> None:
    scratched = play_turn(rules.new_game("yahtzee", [[0]]), [1, 2, 3, 4, 6], "yahtzee")
    rolled = rules.roll(scratched, 0, rules.ScriptedDice([3] * 5))
    assert rules.joker(rolled) == rules.Joker("upper", "threes", False, 0, True)

    no_bonus = rules.new_game("yahtzee", [[0]], TableOptions(yahtzee_bonus=False))
    rolled = rules.roll(play_turn(no_bonus, [3] * 5, "yahtzee"), 0, rules.ScriptedDice([3] * 5))
    assert rules.joker(rolled) == rules.Joker("upper", "threes", False, 0, False)


def test_the_joker_leaves_where_to_the_tables_forced_order_and_has_none_upper_only() -> None:
    forced = rules.new_game("yahtzee", [[0]], TableOptions(forced_order=True))
    for key in forced.category_keys[:-1]:  # up to the Yahtzee box, the last but one
        forced = play_turn(forced, [5] * 5 if key == "yahtzee" else [1, 2, 3, 4, 6], key)
    rolled = rules.roll(forced, 0, rules.ScriptedDice([5] * 5))
    assert rules.scoring_options(rolled) == {"chance": 25}
    assert rules.joker(rolled) == rules.Joker("table", "fives", True, 100, False)

    upper_only = rules.new_game("yahtzee", [[0]], TableOptions(upper_only=True))
    assert rules.joker(rules.roll(upper_only, 0, rules.ScriptedDice([2] * 5))) is None


def test_the_joker_of_a_full_lower_section_scratches_an_upper_box_and_says_so() -> None:
    state = rules.new_game("yahtzee", [[0]])
    lower = ["yahtzee", "three_of_a_kind", "four_of_a_kind", "full_house"]
    lower += ["small_straight", "large_straight", "chance"]
    for key in lower:
        state = play_turn(state, [6, 6, 6, 6, 6] if key == "yahtzee" else [1, 2, 3, 4, 6], key)
    state = play_turn(state, [6, 6, 6, 1, 2], "sixes")

    rolled = rules.roll(state, 0, rules.ScriptedDice([6] * 5))
    assert rules.joker(rolled) == rules.Joker("scratch", "sixes", True, 100, False)
