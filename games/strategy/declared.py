"""Declared target (RULES.md 4.2): after the first roll the player names the category
the turn will score, then rolls for it alone.

A position's value is the mean over first rolls of the best category to declare on
it, declaring c on roll r being worth W_c(r): the value of two more rolls aimed at c
alone, then scoring c. Each W_c is exact and cheap:

- a lower category's points do not change what follows, so W_c(r) = A_c(r) + V(next),
  A_c(r) the best expected points of c in two rolls from r: computed once per category
  (and per joker situation on Yahtzee tables) for every position at once;
- the Yahtzee box leads to V(next, box 50) on five alike, V(next, box 0) otherwise, so
  W(r) = V0 + d * P(r), P(r) the best chance of five alike in two rolls and d = 50 +
  V1 - V0 >= 0 (a box holding 50 can only add Yahtzee bonuses);
- an upper category's outcome depends only on how many dice show its face, and more is
  never worse (more upper points never lower what follows): the best play keeps every
  die of that face and rerolls the rest, W_c(r) is a function of that count, from
  binomial chances;
- except where the Yahtzee bonus is in play (the Yahtzee box holds 50): five alike of
  another face then earn 100 whatever the target, and an upper target is solved over
  the whole roll like an ordinary turn.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from math import comb

import numpy as np

from games import rules
from games.strategy.dice import best_keep_rows, dice_space, expect_rows, roll_block, work_array
from games.strategy.solver import YAHTZEE_BONUS, Solver

ROLLS_AFTER_DECLARING = rules.MAX_ROLLS - 1


class DeclaredSolver(Solver):
    """The tables of a declared-target variant: a turn is worth the mean over first
    rolls of the best category to declare on each (``target_rows``)."""

    def turn_value(self, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        offset = self.offset(masks, ups, boxes)
        best = np.full((len(self.space.rolls), len(masks)), -np.inf, dtype=np.float32)
        for _, value in each_target(self, masks, ups, boxes, offset):
            np.maximum(best, value, out=best, casting="unsafe")
        return self._probability @ best + offset


def target_rows(
    solver: Solver, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(C, R, B) W_c: the value of declaring each category on each first roll, for
    each position, less the position's offset (returned with it, ``Solver.offset``);
    minus infinity for a category already used."""
    offset = solver.offset(masks, ups, boxes)
    targets = np.full((solver.count, len(solver.space.rolls), len(masks)), -np.inf, np.float32)
    for c, value in each_target(solver, masks, ups, boxes, offset):
        targets[c] = value
    return targets, offset


def each_target(
    solver: Solver, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray, offset: np.ndarray
) -> Iterator[tuple[int, np.ndarray]]:
    """For each category still open somewhere: it, and (R, B) the value of declaring
    it on each first roll, less ``offset``; minus infinity where it is used. One at a
    time: a build keeps only the best of them (Maxi Yatzy's 20 would take 38 MB a
    chunk). Every position's column, open or not: picking out the open ones' columns
    of an (R, B) array costs more than the rest of the category's work."""
    variant, space = solver.variant, solver.space
    allowed = solver.open_categories(masks)
    bonus = _bonus_in_play(solver, masks, boxes)
    for c in range(solver.count):
        if not allowed[c].any():
            continue
        closed = np.where(allowed[c], 0, -np.inf).astype(np.float32)  # (B,)
        nxt = solver.row_of(masks | (1 << c))
        if solver.upper[c]:
            by_count = solver.by_count(c, masks, ups, boxes) - offset
            face = _keep_the_face(space.count, by_count) + closed[None, :]
            value = face[solver.counts[c]]
            general = np.flatnonzero(bonus & allowed[c])
            if len(general):
                value[:, general] = aimed_rows(
                    solver, c, masks[general], ups[general], boxes[general], offset[general]
                )
        elif c == variant.yahtzee_index:
            missed = solver.values[nxt, ups, 0] - offset
            hit = solver.values[nxt, ups, 1] + 50 - offset
            chance = _aim(space.count, (tuple(solver.alike * 1.0),))[0]
            value = missed[None, :] + chance[:, None] * (hit - missed)[None, :]
            value[:, ~allowed[c]] = -np.inf
        else:
            follow = solver.values[nxt, ups, boxes] - offset + closed
            alike, which = _distinct(_alike_points(solver, c, masks, ups, boxes))
            aimed = _aim(space.count, tuple(_points(solver, c, row) for row in alike))  # (n, R)
            if len(alike) == 1:
                value = aimed[0][:, None] + follow[None, :]
            else:
                value = aimed[which].T + follow[None, :]
        yield c, value


def _distinct(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``rows`` and the index of each row among them (all alike
    off Yahtzee tables: no sort then)."""
    if (rows == rows[:1]).all():
        return rows[:1], np.zeros(len(rows), dtype=np.int64)
    distinct, which = np.unique(rows, axis=0, return_inverse=True)
    return distinct, which.ravel()


def aimed_rows(
    solver: Solver,
    c: int,
    masks: np.ndarray,
    ups: np.ndarray,
    boxes: np.ndarray,
    offset: np.ndarray,
    rolls_left: int = ROLLS_AFTER_DECLARING,
) -> np.ndarray:
    """(R, B) the value of standing on each roll with ``rolls_left`` rolls to go and
    ``c`` declared, less ``offset``: solved over the whole roll, as any turn."""
    space = solver.space
    work = work_array(space, len(masks))
    final = solver.options(masks, ups, boxes, only=c)[c]  # (B, R)
    roll_block(space, work)[:] = (final - offset[:, None]).T
    for _ in range(rolls_left):
        expect_rows(space, work)
        best_keep_rows(space, work)
    return roll_block(space, work)


def _bonus_in_play(solver: Solver, masks: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(B,) whether five alike earn a Yahtzee bonus at each position."""
    variant = solver.variant
    if not (variant.jokers and variant.yahtzee_bonus):
        return np.zeros(len(masks), dtype=bool)
    return ((masks >> variant.yahtzee_index) & 1 == 1) & (boxes == 1)


def _alike_points(
    solver: Solver, c: int, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray
) -> np.ndarray:
    """(B, 6) lower category ``c``'s points for five (six) alike of each face at each
    position, the only rolls where they depend on the position: on Yahtzee tables with
    the Yahtzee box used, the joker's full points (full house, straights, where the
    upper box of the dice's face is used) and the Yahtzee bonus."""
    variant = solver.variant
    alike = np.flatnonzero(solver.alike)
    points = np.broadcast_to(solver.scores[c][alike], (len(masks), len(alike))).copy()
    if not variant.jokers:
        return points
    faces = solver.alike_face[alike]
    joker = (masks >> variant.yahtzee_index) & 1 == 1
    key = variant.keys[c]
    if key in rules.JOKER_POINTS:
        upper_used = (masks[:, None] >> (faces - 1)[None, :]) & 1 == 1
        points = np.where(joker[:, None] & upper_used, rules.JOKER_POINTS[key], points)
    return points + np.where(_bonus_in_play(solver, masks, boxes), YAHTZEE_BONUS, 0)[:, None]


def _points(solver: Solver, c: int, alike_points: np.ndarray) -> tuple[float, ...]:
    """Category ``c``'s points on every roll, given its points on the rolls alike."""
    points = solver.scores[c].astype(np.float64)
    points[solver.alike] = alike_points
    return tuple(points)


@cache
def _aim(count: int, scores: tuple[tuple[float, ...], ...]) -> np.ndarray:
    """(n, R) for each row of ``scores`` (points on every roll): the best expected
    points in two more rolls from each roll, keeping what is best to keep."""
    space = dice_space(count)
    work = work_array(space, len(scores), np.float64)
    roll_block(space, work)[:] = np.array(scores, dtype=np.float64).T
    for _ in range(ROLLS_AFTER_DECLARING):
        expect_rows(space, work)
        best_keep_rows(space, work)
    return roll_block(space, work).T.copy()


def _keep_the_face(count: int, by_count: np.ndarray) -> np.ndarray:
    """(n + 1, B): from k dice of a face, the value of two more rolls keeping every
    die of that face, given the value of ending on each count (``by_count``)."""
    values = by_count
    for _ in range(ROLLS_AFTER_DECLARING):
        reached = (_count_chances(count) @ values).astype(np.float32)  # keeping m of them
        values = np.maximum.accumulate(reached, axis=0)  # keep any m <= k: the best
    return values


@cache
def _count_chances(count: int) -> np.ndarray:
    """(n + 1, n + 1): the chance of ending on k dice of a face from m kept, the other
    n - m rerolled."""
    chances = np.zeros((count + 1, count + 1))
    for m in range(count + 1):
        for k in range(m, count + 1):
            rolled, hits = count - m, k - m
            chances[m, k] = comb(rolled, hits) * (1 / 6) ** hits * (5 / 6) ** (rolled - hits)
    return chances
