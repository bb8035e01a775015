"""Advice for the player to move, from the solved value tables.

Expected scores here are *final* scores: the points already on the scorecard
(bonuses included) plus the expected points still to come under optimal play.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games import rules
from games.strategy import declared, tables
from games.strategy.dice import expect, positions_of, sub_multisets
from games.strategy.solver import Solver, Variant


@dataclass(frozen=True)
class Choice:
    expected: float  # expected final score after this choice, played on optimally
    hold: tuple[int, ...] | None = None  # dice positions to hold (0-based) and roll again
    category: str | None = None  # or the category to score now
    target: str | None = None  # or the category to declare as the turn's target


@dataclass(frozen=True)
class Advice:
    choices: tuple[Choice, ...]  # best first

    @property
    def best(self) -> Choice:
        return self.choices[0]

    def loss(self, choice: Choice) -> float:
        """Expected points given away by ``choice`` against the best one."""
        return self.best.expected - choice.expected


def solver_for(state: rules.GameState) -> Solver | None:
    """The tables for this table's variant, or None (not built yet, or not covered)."""
    return tables.load_or_build_small(Variant.of(state.ruleset_key, state.options))


def advise(state: rules.GameState, solver: Solver | None = None) -> Advice | None:
    """Every choice open to the player to move, ranked; None when there is no choice
    to make (before the first roll, after the game) or no tables for this table."""
    solver = solver or solver_for(state)
    if solver is None or state.is_finished or state.roll_number == 0:
        return None
    mask, upper, box, banked = _position(solver, state)
    roll = solver.space.index[tuple(sorted(state.dice))]
    roll_column = int(np.flatnonzero(solver.space.rolls == roll)[0])
    if solver.variant.declared_target and state.target is None:
        return _declarations(solver, state, (mask, upper, box), banked, roll_column)
    options = solver.options(mask, upper, box)[:, 0, roll_column]
    legal = rules.scoring_options(state)
    choices = [
        Choice(expected=banked + float(options[c]), category=key)
        for c, key in enumerate(solver.variant.keys)
        if key in legal and np.isfinite(options[c])
    ]
    rolls_left = rules.MAX_ROLLS - state.roll_number
    if rolls_left:
        if state.target is not None:  # the rolls left are aimed at the declared target
            c = solver.variant.keys.index(state.target)
            zero = np.zeros(1)
            following = declared.aimed_rows(solver, c, mask, upper, box, zero, rolls_left - 1).T
        else:
            following = solver.after_roll(mask, upper, box, rolls_left=rolls_left - 1)
        keep_values = expect(solver.space, following)[0]
        for keep in sub_multisets(tuple(sorted(state.dice))):
            if len(keep) == len(state.dice):
                continue  # holding every die is scoring now, listed above
            value = banked + float(keep_values[solver.space.index[keep]])
            choices.append(Choice(expected=value, hold=positions_of(keep, state.dice)))
    choices.sort(key=lambda choice: -choice.expected)
    return Advice(tuple(choices))


def _declarations(
    solver: Solver,
    state: rules.GameState,
    position: tuple[np.ndarray, np.ndarray, np.ndarray],
    banked: float,
    roll_column: int,
) -> Advice:
    """The categories to declare as the turn's target, each worth two more rolls
    aimed at it alone (``declared.target_rows``)."""
    targets, offset = declared.target_rows(solver, *position)
    worth = targets[:, roll_column, 0] + offset[0]
    choices = [
        Choice(expected=banked + float(worth[c]), target=key)
        for c, key in enumerate(solver.variant.keys)
        if not state.current_scorecard.is_used(key)
    ]
    choices.sort(key=lambda choice: -choice.expected)
    return Advice(tuple(choices))


def _position(solver: Solver, state: rules.GameState, index: int | None = None):
    """Solver coordinates of scorecard ``index`` (the one to move by default) and the
    points it has banked: the state between its turns, whatever the dice show."""
    index = state.current_index if index is None else index
    points = state.scorecards[index].points()
    keys = solver.variant.keys
    mask = sum(1 << c for c, key in enumerate(keys) if key in points)
    totals = state.totals(index)
    upper = min(totals.upper, solver.variant.threshold)
    box = 1 if solver.boxes == 2 and points.get(state.ruleset.all_alike_key, 0) > 0 else 0
    return np.array([mask]), np.array([upper]), np.array([box]), float(totals.total)


def between_turns(state: rules.GameState, index: int, solver: Solver) -> float:
    """Expected final score of scorecard ``index`` before its next turn's first roll."""
    mask, upper, box, banked = _position(solver, state, index)
    return banked + solver.value(mask[0], upper[0], box[0])
