"""Computer players: what a bot of each level does next, given the game state.

- Beginner plays like a casual human: it keeps its most common face, stops when the
  dice look good, scores whatever pays most now, and now and then gets it wrong.
- Good plays each turn optimally against a fixed price list: every category has a
  par (what a player who aims only at it scores in one turn on average), a roll is
  worth its best ``points - par`` (upper rows also earn progress towards the bonus),
  and holds are chosen to maximise that at the end of the turn, computed exactly over
  the dice with the solver's multiset machinery.
- Perfect follows the solved tables (maximum expected final score), the declaration
  of a target included. Where no tables exist (full Maxi Yatzy until it is built by
  hand, or tables still being built) it plays as Good; forced-order and
  upper-section-only tables are small enough to solve on the spot.

No Django here: a move is computed from the engine state and the bot's random
generator alone, so bots are tested exhaustively without a database.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from games import rules
from games.strategy import advice, tables
from games.strategy.dice import best_keep, dice_space, expect, positions_of, sub_multisets
from games.strategy.solver import Variant

LEVELS = ("beginner", "good", "perfect")
BEGINNER_MISTAKES = 0.2  # chance of a careless hold or score
BONUS_WEIGHT = 1.0  # how much an upper row's progress towards the bonus is worth (tuned)


@dataclass(frozen=True)
class Move(rules.Move):
    """A computer player's choice: a roll (keeping ``held``), a declaration or a score."""

    held: tuple[int, ...] = ()  # dice positions kept when rolling again
    # The level it was chosen at: a Perfect player's is "good" where it has no tables
    # (``perfect_plays_as_good``), for the game's review to say so.
    level: str = ""


def choose_move(state: rules.GameState, level: str, rng: random.Random) -> Move:
    """The next action of the player to move, playing at ``level`` (``Move.level``
    says the level it was chosen at)."""
    if state.is_finished:
        raise ValueError("the game is over")
    if state.roll_number == 0:
        return Move("roll", level=level)  # no choice to make
    if level == "perfect":
        move = _perfect(state)
        if move is not None:
            return replace(move, level=level)
        level = "good"  # no tables (yet): ``perfect_plays_as_good`` says why
    if state.options.declared_target and state.target is None:
        return Move("declare", category=_declare(state), level=level)
    if level == "good":
        return replace(_good(state), level=level)
    if level == "beginner":
        return replace(_beginner(state, rng), level=level)
    raise ValueError(f"unknown bot level {level!r}")


# -- Perfect -------------------------------------------------------------------------------


def perfect_plays_as_good(ruleset: str, options: rules.TableOptions) -> str:
    """Why a Perfect computer player plays as Good at a table of these rules: "being
    solved" while its tables are not built yet (``make run`` builds the two default
    ones in the background; the others are built when a Perfect player first asks for
    them, ``tables.build_later``), "not built" while they are not and this server does
    not build them by itself (``YATZY_BUILD_TABLES=0``, or whole Maxi Yatzy games:
    ``manage.py solve`` does); "" where it plays perfectly. Small tables (forced order,
    upper section only) are solved on the spot when first asked for."""
    variant = Variant.of(ruleset, options)
    if variant.small or tables.ready(variant):
        return ""
    if tables.builds_by_itself(variant):
        return "being solved"
    return "not built"


def _perfect(state: rules.GameState) -> Move | None:
    solver = advice.solver_for(state)
    if solver is None:
        return None
    advised = advice.advise(state, solver)
    if advised is None:  # none before the first roll: ``choose_move`` does not ask then
        return None
    best = advised.best
    if best.target is not None:
        return Move("declare", category=best.target)
    if best.category is not None:
        return Move("score", category=best.category)
    return Move("roll", held=best.hold or ())


# -- Good ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Table:
    """Base scores of every category for every roll of the table's dice."""

    keys: tuple[str, ...]
    scores: np.ndarray  # (C, R)
    upper: np.ndarray  # (C,) face of an upper row, 0 for lower rows
    par: np.ndarray  # (C,)


@cache
def _table(ruleset: str, upper_only: bool) -> _Table:
    table = rules.get_ruleset(ruleset)
    categories = table.upper_categories if upper_only else table.categories
    space = dice_space(table.dice_count)
    scores = np.array(
        [[table.score(c.key, space.keeps[r]) for r in space.rolls] for c in categories],
        dtype=np.float64,
    )
    par = np.array([_turn_value(space, row[None, :], 2)[0] for row in scores])
    upper = np.array([table.upper_categories.index(c) + 1 if c.is_upper else 0 for c in categories])
    return _Table(tuple(c.key for c in categories), scores, upper, par)


def _turn_value(space, roll_values: np.ndarray, rolls_left: int) -> np.ndarray:
    """Expected value of a turn from its first roll, for each row of ``roll_values``."""
    values = roll_values
    for _ in range(rolls_left):
        values = best_keep(space, expect(space, values))
    return values @ space.roll_probability


def _worth(state: rules.GameState, table: _Table, allowed: list[str]) -> np.ndarray:
    """(R,): what ending the turn on each roll is worth, by the price list."""
    card = state.current_scorecard
    totals = state.totals(state.current_index)
    threshold = state.ruleset.bonus_threshold
    bonus_open = totals.upper < threshold and any(
        not card.is_used(c.key) for c in state.ruleset.upper_categories
    )
    best = np.full(table.scores.shape[1], -np.inf)
    for c, key in enumerate(table.keys):
        if key not in allowed:
            continue
        value = table.scores[c] - table.par[c]
        face = table.upper[c]
        if face and bonus_open:
            # three of a face keeps pace with the bonus; more or fewer moves it
            value = value + BONUS_WEIGHT * (table.scores[c] - 3 * face)
        np.maximum(best, value, out=best)
    return best


def _allowed(state: rules.GameState) -> list[str]:
    card = state.current_scorecard
    open_keys = [key for key in state.category_keys if not card.is_used(key)]
    if state.options.forced_order:
        return open_keys[:1]
    if state.target is not None:
        return [state.target]
    return open_keys


def _good(state: rules.GameState) -> Move:
    table = _table(state.ruleset_key, state.options.upper_only)
    space = dice_space(state.dice_count)
    legal = rules.scoring_options(state)
    now = _worth_now(state, table, legal)
    best_category = max(now, key=lambda key: now[key])
    rolls_left = rules.MAX_ROLLS - state.roll_number
    if not rolls_left:
        return Move("score", category=best_category)
    values = _worth(state, table, _allowed(state))[None, :]
    for _ in range(rolls_left - 1):
        values = best_keep(space, expect(space, values))
    keep_values = expect(space, values)[0]
    dice = tuple(sorted(state.dice))
    best_keep_value, keep = max(
        (keep_values[space.index[k]], k) for k in sub_multisets(dice) if len(k) < len(dice)
    )
    if now[best_category] >= best_keep_value:
        return Move("score", category=best_category)
    return Move("roll", held=positions_of(keep, state.dice))


def _worth_now(state: rules.GameState, table: _Table, legal: dict[str, int]) -> dict[str, float]:
    """The price-list worth of scoring each legal category with the dice as they are
    (joker points included, which the table of base scores does not know)."""
    totals = state.totals(state.current_index)
    bonus_open = totals.upper < state.ruleset.bonus_threshold
    worth = {}
    for key, points in legal.items():
        c = table.keys.index(key)
        value = points - table.par[c]
        face = table.upper[c]
        if face and bonus_open:
            value += BONUS_WEIGHT * (points - 3 * face)
        worth[key] = float(value)
    return worth


def _declare(state: rules.GameState) -> str:
    """The open category whose one-category turn, from these dice, beats its par most."""
    table = _table(state.ruleset_key, state.options.upper_only)
    space = dice_space(state.dice_count)
    roll = space.index[tuple(sorted(state.dice))]
    column = int(np.flatnonzero(space.rolls == roll)[0])
    rolls_left = rules.MAX_ROLLS - state.roll_number
    best_key, best_value = "", -np.inf
    for key in _allowed(state):
        c = table.keys.index(key)
        values = (table.scores[c] - table.par[c])[None, :]
        for _ in range(rolls_left):
            values = best_keep(space, expect(space, values))
        if values[0, column] > best_value:
            best_key, best_value = key, values[0, column]
    return best_key


# -- Beginner ------------------------------------------------------------------------------


def _beginner(state: rules.GameState, rng: random.Random) -> Move:
    legal = rules.scoring_options(state)
    greedy = max(legal, key=lambda key: (legal[key], -state.category_keys.index(key)))
    rolls_left = rules.MAX_ROLLS - state.roll_number
    happy = legal[greedy] >= 25 or len(set(state.dice)) == 1
    if not rolls_left or happy:
        if rng.random() < BEGINNER_MISTAKES:
            return Move("score", category=rng.choice(list(legal)))
        return Move("score", category=greedy)
    counts = Counter(state.dice)
    if rng.random() < BEGINNER_MISTAKES:
        face = rng.choice(sorted(counts))  # keeps the wrong face
    else:
        face = max(counts, key=lambda f: (counts[f], f))
    held = tuple(i for i, die in enumerate(state.dice) if die == face)
    if len(held) == len(state.dice):
        return Move("score", category=greedy)
    return Move("roll", held=held)


def play(
    state: rules.GameState, levels: dict[int, str], rng: random.Random, dice: rules.Dice
) -> rules.GameState:
    """Play ``state`` to the end with a bot of ``levels[player]`` in every seat, rolling
    ``dice``; ``rng`` makes the choices left to chance (a Beginner's)."""
    while not state.is_finished:
        player = state.to_move
        state = rules.apply(state, player, choose_move(state, levels[player], rng), dice)
    return state
