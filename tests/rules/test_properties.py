"""Invariants over random games (hypothesis): whatever is played, these hold."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games import rules
from games.rules import GameState, RandomDice, RulesError, TableOptions

options = st.builds(
    TableOptions,
    forced_order=st.booleans(),
    upper_only=st.booleans(),
    auto_first_roll=st.booleans(),
)
tables = st.lists(st.integers(1, 3), min_size=1, max_size=4)  # players per scorecard


def build(ruleset: str, sizes: list[int], table_options: TableOptions, seed: int) -> GameState:
    seats = iter(range(sum(sizes)))
    cards = [[next(seats) for _ in range(size)] for size in sizes]
    return rules.new_game(ruleset, cards, table_options, RandomDice(random.Random(seed)))


def random_move(state: GameState, chooser: random.Random, rng: random.Random) -> GameState:
    """A legal move of the player to move, chosen at random."""
    player = state.current_player
    options_now = rules.scoring_options(state)
    if state.roll_number == 0 or (state.roll_number < 3 and chooser.random() < 0.5):
        if state.roll_number > 0 and chooser.random() < 0.5:
            held = [i for i in range(state.dice_count) if chooser.random() < 0.4]
            if len(held) < state.dice_count:
                state = rules.hold(state, player, held)
        return rules.roll(state, player, RandomDice(rng))
    return rules.score(state, player, chooser.choice(sorted(options_now)), RandomDice(rng))


@settings(max_examples=40, deadline=None)
@given(
    ruleset=st.sampled_from(["yatzy", "yahtzee", "maxi_yatzy"]),
    sizes=tables,
    table_options=options,
    seed=st.integers(0, 10**6),
)
def test_random_games_keep_every_invariant(
    ruleset: str, sizes: list[int], table_options: TableOptions, seed: int
) -> None:
    rng, chooser = random.Random(seed), random.Random(seed + 1)
    state = build(ruleset, sizes, table_options, seed)
    turns = 0
    while not state.is_finished:
        before = state.turn
        state = random_move(state, chooser, rng)
        turns += state.turn - before
        restored = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert restored == state

    assert turns == state.rounds * len(sizes)
    for index, card in enumerate(state.scorecards):
        totals = state.totals(index)
        assert len(card.entries) == state.rounds
        assert totals.total == sum(card.points().values()) + totals.bonus + totals.yahtzee_bonus
        assert totals.bonus in (0, table_options.bonus_value(state.ruleset))
    for action in (
        lambda: rules.roll(state, 0, rng),
        lambda: rules.score(state, 0, state.category_keys[0]),
        lambda: rules.hold(state, 0, [0]),
    ):
        try:
            action()
        except RulesError as error:
            assert error.code == "game_over"
        else:
            raise AssertionError("an action was accepted after the end")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), key=st.sampled_from(["chance", "ones", "yatzy", "nope"]))
def test_a_refused_action_leaves_the_state_as_it_was(seed: int, key: str) -> None:
    rng = random.Random(seed)
    state = rules.new_game("yatzy", [[0], [1]])
    for _ in range(rng.randint(0, 6)):
        state = random_move(state, rng, rng)
    before = state.to_dict()
    for action in (
        lambda: rules.score(state, 1 - (state.current_player or 0), key),
        lambda: rules.score(state, state.current_player, key),
        lambda: rules.roll(state, 1 - (state.current_player or 0), RandomDice(rng)),
        lambda: rules.hold(state, state.current_player, [7]),
    ):
        try:
            action()
        except RulesError:
            assert state.to_dict() == before
