"""Exact optimal play by backward induction over the turn.

A position between turns is (categories used, upper points so far capped at the bonus
threshold, and on Yahtzee tables whether the Yahtzee box holds 50). Its value is the
expected number of points still to come under optimal play: the turn is roll, keep,
roll, keep, roll, choose, with rolls and keeps as multisets (dice.py), and the choice
leads to a position with one more category used, valued before it. Positions are
solved from the full scorecard back to the empty one, a layer (number of categories
used) at a time, chunks of a layer at once in numpy.

Covered exactly: every rule set's scoring (full Maxi Yatzy included), the upper bonus
(and Yatzy's 25 option), the Yahtzee bonus and joker rule, forced order, upper section
only, and declared targets, whose turn ``declared.DeclaredSolver`` solves
(``tables.solver_of`` picks the class of a variant).
"""

from __future__ import annotations

import contextlib
import mmap
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import cached_property

import numpy as np

from games import rules
from games.strategy.dice import (
    DiceSpace,
    best_keep_rows,
    dice_space,
    expect_rows,
    roll_block,
    work_array,
)
from games.strategy.variant import Variant

Progress = Callable[[int, int, float], None]
_TURN_COST = 8  # a turn's rolls cost about as much as choosing among 8 categories
CHUNK = 1_024  # positions solved together: their work arrays stay in the CPU caches
JOKER_POINTS = rules.JOKER_POINTS
YAHTZEE_BONUS = 100


class Solver:
    """Value tables of one variant: ``value(mask, upper, box)`` = expected points to come.

    ``values[row, upper, box]`` holds them, a row per scorecard that exists: every
    set of categories used on a whole game (``row = mask``), only the first n of them
    in forced order (``row = n``), so a forced-order table is a few kilobytes."""

    def __init__(self, variant: Variant, values: np.ndarray | None = None) -> None:
        self.variant = variant
        self.space: DiceSpace = dice_space(variant.table.dice_count)
        self.count = len(variant.keys)
        self.levels = variant.threshold + 1
        self.boxes = 2 if variant.jokers else 1
        self.scores = np.array(
            [
                [variant.table.score(key, self.space.keeps[r]) for r in self.space.rolls]
                for key in variant.keys
            ],
            dtype=np.int32,
        )
        self.upper = np.array([k in _UPPER_KEYS for k in variant.keys])
        rolls = self.space.roll_multisets
        self.alike = np.array([len(set(r)) == 1 for r in rolls])
        self.alike_face = np.array([r[0] if len(set(r)) == 1 else 0 for r in rolls])
        # (C, R) dice showing an upper category's face in each roll; (C, R, 1) scores
        self.counts = np.array([[r.count(c + 1) for r in rolls] for c in range(self.count)])
        self._score_rows = self.scores.astype(np.float32)[:, :, None]
        rows = self.count + 1 if variant.forced_order else 1 << self.count
        shape = (rows, self.levels, self.boxes)
        self.values = np.zeros(shape, dtype=np.float32) if values is None else values

    def row_of(self, masks: np.ndarray) -> np.ndarray:
        """The row of ``values`` that holds the scorecards with these categories used."""
        if self.variant.forced_order:
            return np.bitwise_count(masks).astype(np.int64)
        return masks

    def value(self, mask: int, upper: int, box: int) -> float:
        """Expected points to come from this position, before its turn's first roll."""
        return float(self.values[self.row_of(np.array([mask]))[0], upper, box])

    # -- building -----------------------------------------------------------------------

    def build(
        self, progress: Progress | None = None, workers: int | None = None, down_to: int = 0
    ) -> np.ndarray:
        """Solve every reachable position, last layer first (down to the positions with
        ``down_to`` categories used: the late game alone, for a check).

        The positions of a layer depend only on later layers, so each layer's chunks
        are shared out to forked worker processes (one per core), which read the
        tables solved so far and write theirs into the same shared memory.
        ``progress(done, total, share)`` is told after each chunk: positions solved,
        of how many, and the share of the work done (a position with more categories
        open costs more).
        """
        global _BUILDING
        layers = range(self.count - 1, down_to - 1, -1)
        counts = {used: self.count_positions(used, solved=True) for used in layers}
        total = sum(counts.values())
        work = sum(counts[used] * (self.count - used + _TURN_COST) for used in layers)
        workers = workers or os.cpu_count() or 1
        shared = mmap.mmap(-1, self.values.nbytes)  # anonymous, so shared with forks
        self.values = np.frombuffer(shared, dtype=np.float32).reshape(self.values.shape)
        _BUILDING = self
        with contextlib.ExitStack() as stack:
            solve: Callable = map
            if workers > 1 and total > 4 * CHUNK:  # a small table is not worth a fork
                context = multiprocessing.get_context("fork")
                solve = stack.enter_context(ProcessPoolExecutor(workers, mp_context=context)).map
            done, work_done = 0, 0
            for used in layers:
                masks, ups, boxes = self._positions(used, solved=True)
                chunks = [
                    (masks[s : s + CHUNK], ups[s : s + CHUNK], boxes[s : s + CHUNK])
                    for s in range(0, len(masks), CHUNK)
                ]
                for solved in solve(_solve_chunk, chunks):  # a layer ends before the next
                    done += solved
                    work_done += solved * (self.count - used + _TURN_COST)
                    if progress:
                        progress(done, total, work_done / work)
        return self.values

    def count_positions(self, used: int | None = None, solved: bool = False) -> int:
        """How many reachable positions have ``used`` categories filled (all: None);
        ``solved``: only those a build solves (``_solved_upper``)."""
        if used is None:
            return sum(self.count_positions(n, solved) for n in range(self.count))
        masks = self._layer_masks(used)
        levels = self._solved_upper if solved else self._reachable_upper
        per_mask = levels[self._upper_masks(masks)].sum(axis=1)
        if self.variant.jokers:
            per_mask *= 1 + ((masks >> self.variant.yahtzee_index) & 1)
        return int(per_mask.sum())

    def sample_seconds(self, size: int = 16 * CHUNK, seed: int = 0) -> float:
        """CPU seconds one position costs to solve, measured on ``size`` positions
        drawn from every layer in proportion to its size (the values they read do not
        change the cost: the tables need not be built). 2,048 positions took ~30 ms on
        Maxi Yatzy, and their estimate of the build swung from 0.6 to 1.0 times the
        build's; 16,384 take a quarter of a second and held within 10 %."""
        rng = np.random.default_rng(seed)
        total = self.count_positions(solved=True)
        sample: list[tuple[np.ndarray, ...]] = []
        for used in range(self.count):
            masks, ups, boxes = self._positions(used, solved=True)
            chosen = np.sort(rng.choice(len(masks), max(1, size * len(masks) // total)))
            sample.append((masks[chosen], ups[chosen], boxes[chosen]))
        masks, ups, boxes = (np.concatenate(column) for column in zip(*sample, strict=True))
        started = time.process_time()
        for s in range(0, len(masks), CHUNK):
            self.turn_value(masks[s : s + CHUNK], ups[s : s + CHUNK], boxes[s : s + CHUNK])
        return (time.process_time() - started) / len(masks)

    @property
    def expected_score(self) -> float:
        """Expected final score of a fresh game under optimal play."""
        return self.value(0, 0, 0)

    def _positions(
        self, used: int, solved: bool = False
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every reachable position with ``used`` categories filled, a scorecard's
        positions side by side; ``solved``: only those a build solves."""
        masks = self._layer_masks(used)
        levels = self._solved_upper if solved else self._reachable_upper
        rows, ups = np.nonzero(levels[self._upper_masks(masks)])
        masks = masks[rows]
        boxes = np.zeros_like(masks)
        if self.variant.jokers:
            # a used Yahtzee box holds 50 (box 1) or 0 (box 0)
            box_used = (masks >> self.variant.yahtzee_index) & 1 == 1
            order = np.argsort(np.concatenate([masks, masks[box_used]]), kind="stable")
            masks = np.concatenate([masks, masks[box_used]])[order]
            ups = np.concatenate([ups, ups[box_used]])[order]
            boxes = np.concatenate([boxes, np.ones(box_used.sum(), dtype=boxes.dtype)])[order]
        return masks, ups.astype(np.int64), boxes

    @cached_property
    def _solved_upper(self) -> np.ndarray:
        """``_reachable_upper`` less the levels a build does not solve.

        Where the upper rows still open cannot reach the bonus, however they are
        scored, the upper points so far change nothing that is to come: every such
        level of a scorecard has the value of level 0 (always reachable, and out of
        reach of the bonus whenever any level is), which ``_solve_chunk`` copies to
        the others. About a third of a whole game's positions."""
        levels = np.arange(self.levels)[None, :]
        own = (levels == 0) | (levels >= self._dead_levels[:, None])
        return self._reachable_upper & own

    @cached_property
    def _dead_levels(self) -> np.ndarray:
        """dead[upper categories used (6 bits)]: the upper levels 0..dead - 1 cannot
        reach the bonus any more (with the most dice of its face in every upper row
        still open), 0 where every level can."""
        n, cap = self.variant.table.dice_count, self.variant.threshold
        dead = np.zeros(64, dtype=np.int64)
        if not self.upper[0]:
            return dead
        for mask in range(64):
            most = n * sum(face for face in range(1, 7) if not mask >> (face - 1) & 1)
            dead[mask] = max(cap - most, 0)
        return dead

    def _layer_masks(self, used: int) -> np.ndarray:
        """The sets of categories used (bit masks) with ``used`` of them filled."""
        if self.variant.forced_order:
            return np.array([(1 << used) - 1])
        every = np.arange(1 << self.count)
        return every[np.bitwise_count(every) == used]

    def _upper_masks(self, masks: np.ndarray) -> np.ndarray:
        """The upper categories used, as 6 bits, of each set of categories used."""
        return masks & ((1 << 6) - 1) if self.upper[0] else np.zeros_like(masks)

    @cached_property
    def _reachable_upper(self) -> np.ndarray:
        """reach[upper categories used (6 bits), u]: can those rows total u (capped)?"""
        n, cap = self.variant.table.dice_count, self.variant.threshold
        reach = np.zeros((64, self.levels), dtype=bool)
        reach[0, 0] = True
        for mask in range(1, 64):
            face = mask.bit_length()  # add the highest face of the mask last
            before = reach[mask & ~(1 << (face - 1))]
            for count in range(n + 1):
                shifted = np.flatnonzero(before) + face * count
                reach[mask, np.minimum(shifted, cap)] = True
        return reach

    # -- one turn ------------------------------------------------------------------------

    def turn_value(self, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Expected points to come at the start of a turn, for a batch of positions."""
        work, offset = self._after_roll_rows(masks, ups, boxes, rolls_left=2)
        return self._probability @ roll_block(self.space, work) + offset

    def after_roll(
        self, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray, rolls_left: int
    ) -> np.ndarray:
        """(B, R): the value of standing on each roll with ``rolls_left`` rolls to go."""
        work, offset = self._after_roll_rows(masks, ups, boxes, rolls_left)
        return roll_block(self.space, work).T + offset[:, None]

    def _after_roll_rows(
        self, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray, rolls_left: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """A work array (dice.work_array) whose rolls' rows hold the value of standing
        on each roll with ``rolls_left`` rolls to go, a column per position, less the
        position's offset (returned with it).

        The offset is the value of a position the turn can lead to: what is left is
        the size of a turn's points, not of a game's, and float32 keeps it ~5 times
        more precisely (every layer's rounding adds up in the start value)."""
        work = work_array(self.space, len(masks))
        offset = self._choose_rows(roll_block(self.space, work), masks, ups, boxes)
        for _ in range(rolls_left):
            expect_rows(self.space, work)
            best_keep_rows(self.space, work)
        return work, offset

    @cached_property
    def _scoring(self) -> list[np.ndarray | None]:
        """Per category, the rolls that score in it, where they are fewer than half:
        scored on the others it is worth what follows alone (the same for every
        roll), so ``_choose_rows`` takes the best of that once and works on these
        rows only (Maxi Yatzy's straights, houses, tower and the like)."""
        rolls = len(self.space.rolls)
        found = [np.flatnonzero(points > 0) for points in self.scores]
        return [rows if len(rows) < rolls // 2 else None for rows in found]

    @cached_property
    def _probability(self) -> np.ndarray:
        return self.space.roll_probability.astype(np.float32)

    def open_categories(self, masks: np.ndarray) -> np.ndarray:
        """(C, B): the categories the table leaves open to score at each position."""
        used = ((masks[None, :] >> np.arange(self.count)[:, None]) & 1) == 1
        if self.variant.forced_order:
            return np.arange(self.count)[:, None] == np.argmin(used, axis=0)[None, :]
        return ~used

    def offset(self, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(B,) the value of a position each turn can lead to (``_after_roll_rows``)."""
        first_open = np.argmax(self.open_categories(masks), axis=0)
        return self.values[self.row_of(masks | (1 << first_open)), ups, boxes]

    def by_count(self, c: int, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(n + 1, B): upper category ``c`` scored with k dice of its face, k = 0..n:
        its points, the upper bonus if they reach it, and the value of what follows."""
        variant, face = self.variant, c + 1
        nxt = self.row_of(masks | (1 << c))
        by_count = np.empty((variant.table.dice_count + 1, len(masks)), dtype=np.float32)
        for k in range(len(by_count)):
            total = ups + face * k
            level = np.minimum(total, variant.threshold)
            crossed = (ups < variant.threshold) & (total >= variant.threshold)
            by_count[k] = self.values[nxt, level, boxes] + (
                face * k + np.where(crossed, variant.bonus, 0)
            )
        return by_count

    def _choose_rows(
        self, best: np.ndarray, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray
    ) -> np.ndarray:
        """Fill ``best`` (R, B) with the best category's points plus the value of the
        position it leads to, less an offset per position (returned), for each roll
        (row) and position (column).

        A running maximum over the categories; an upper category's outcome depends on
        the roll only through how many dice show its face, so its follow-up values are
        gathered once per count, not once per roll. Rolls of five alike on a Yahtzee
        table (bonus, joker) are then done exactly by ``options``.
        """
        variant = self.variant
        allowed = self.open_categories(masks)
        best[:] = -np.inf
        scratch = np.empty_like(best)
        offset = self.offset(masks, ups, boxes)
        scored_nothing = np.full(len(masks), -np.inf, dtype=np.float32)
        for c in range(self.count):
            if not allowed[c].any():
                continue
            nxt = self.row_of(masks | (1 << c))
            if self.upper[c]:
                by_count = self.by_count(c, masks, ups, boxes) - offset
                by_count[:, ~allowed[c]] = -np.inf
                scratch[:] = by_count[self.counts[c]]
            elif c == variant.yahtzee_index:
                scored = self.scores[c] > 0
                for box in (0, 1):
                    follow = np.where(allowed[c], self.values[nxt, ups, box] - offset, -np.inf)
                    rows = scored == bool(box)
                    scratch[rows] = self._score_rows[c, rows] + follow[None, :]
            else:
                follow = np.where(allowed[c], self.values[nxt, ups, boxes] - offset, -np.inf)
                rows = self._scoring[c]
                if rows is not None:  # a category most rolls score nothing in
                    np.maximum(scored_nothing, follow, out=scored_nothing)
                    best[rows] = np.maximum(best[rows], self._score_rows[c, rows] + follow)
                    continue
                np.add(self._score_rows[c], follow[None, :], out=scratch)
            np.maximum(best, scratch, out=best)
        np.maximum(best, scored_nothing[None, :], out=best)
        if variant.jokers:  # the rolls of five alike where the Yahtzee box is used
            alike = np.flatnonzero(self.alike)
            joker = np.flatnonzero((masks >> variant.yahtzee_index) & 1)
            options = self.options(masks[joker], ups[joker], boxes[joker], alike)
            best[np.ix_(alike, joker)] = options.max(axis=0).T - offset[joker]
        return offset

    def options(
        self,
        masks: np.ndarray,
        ups: np.ndarray,
        boxes: np.ndarray,
        columns: np.ndarray | None = None,
        only: int | None = None,
    ) -> np.ndarray:
        """(C, B, R'): each category's points plus what follows, for the roll ``columns``
        (all rolls by default); -inf where the rules do not allow the category (and for
        every category but ``only``, when given)."""
        variant = self.variant
        columns = np.arange(len(self.space.rolls)) if columns is None else columns
        batch, rolls = len(masks), len(columns)
        out = np.full((self.count, batch, rolls), -np.inf, dtype=np.float32)
        allowed = self._allowed(masks, columns)  # (C, B, R')
        joker = self._joker(masks, columns)  # (B, R')
        alike_face = self.alike_face[columns]
        bonus = np.zeros((batch, rolls), dtype=np.float32)
        if variant.jokers and variant.yahtzee_bonus:
            bonus = np.where(joker & (boxes[:, None] == 1), YAHTZEE_BONUS, 0).astype(np.float32)
        for c, key in enumerate(variant.keys):
            if only is not None and c != only:
                continue
            points = np.broadcast_to(self.scores[c][columns], (batch, rolls)).astype(np.float32)
            if key in JOKER_POINTS and variant.jokers:
                matching_used = (masks[:, None] >> (alike_face - 1).clip(0)) & 1
                full = joker & (matching_used == 1)
                points = np.where(full, JOKER_POINTS[key], points)
            nxt = self.row_of(masks | (1 << c))
            if self.upper[c]:
                total = ups[:, None] + points.astype(np.int64)
                level = np.minimum(total, variant.threshold)
                crossed = (ups[:, None] < variant.threshold) & (total >= variant.threshold)
                follow = self.values[nxt[:, None], level, boxes[:, None]]
                value = points + np.where(crossed, variant.bonus, 0) + follow
            elif c == variant.yahtzee_index:
                box = (self.scores[c][columns] > 0).astype(np.int64)[None, :]
                value = points + self.values[nxt[:, None], ups[:, None], box]
            else:
                value = points + self.values[nxt, ups, boxes][:, None]
            out[c] = np.where(allowed[c], value + bonus, -np.inf)
        return out

    def _joker(self, masks: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """(B, R'): five alike with the Yahtzee box already used, for the roll ``columns``."""
        if not self.variant.jokers:
            return np.zeros((len(masks), len(columns)), dtype=bool)
        box_used = (masks >> self.variant.yahtzee_index) & 1
        return (box_used[:, None] == 1) & self.alike[columns][None, :]

    def _allowed(self, masks: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """(C, B, R'): where each category may be scored, as the engine allows, for the
        roll ``columns``."""
        count, batch, rolls = self.count, len(masks), len(columns)
        used = ((masks[None, :] >> np.arange(count)[:, None]) & 1) == 1  # (C, B)
        if self.variant.forced_order:
            first = np.argmin(used, axis=0)  # the first open category
            open_now = np.arange(count)[:, None] == first[None, :]
            return np.broadcast_to(open_now[:, :, None], (count, batch, rolls))
        allowed = np.broadcast_to(~used[:, :, None], (count, batch, rolls)).copy()
        if not self.variant.jokers or self.variant.declared_target:
            return allowed  # a declared target takes the score, joker or not
        joker = self._joker(masks, columns)
        lower = ~self.upper
        lower_open = (~used & lower[:, None]).any(axis=0)  # (B,)
        alike_face = self.alike_face[columns]
        for face in np.unique(alike_face[alike_face > 0]):
            matching_open = ~used[face - 1]  # (B,)
            rows = joker & (alike_face == face)[None, :]
            only_matching = np.arange(count) == face - 1
            choice = np.where(
                matching_open[None, :, None],
                only_matching[:, None, None] & ~used[:, :, None],
                np.where(
                    lower_open[None, :, None],
                    (lower[:, None] & ~used)[:, :, None],
                    (~lower[:, None] & ~used)[:, :, None],
                ),
            )
            allowed = np.where(rows[None, :, :], choice, allowed)
        return allowed


_UPPER_KEYS = {"ones", "twos", "threes", "fours", "fives", "sixes"}
_BUILDING: Solver | None = None  # the solver whose layer forked workers are solving


def _solve_chunk(chunk: tuple[np.ndarray, np.ndarray, np.ndarray]) -> int:
    """Solve and store a chunk of positions (in a forked worker); how many it solved."""
    assert _BUILDING is not None
    solver = _BUILDING
    masks, ups, boxes = chunk
    rows, values = solver.row_of(masks), solver.turn_value(*chunk)
    solver.values[rows, ups, boxes] = values
    # level 0 stands for every level out of reach of the bonus (_solved_upper)
    dead = np.where(ups == 0, solver._dead_levels[solver._upper_masks(masks)], 0)
    which, levels = np.nonzero(np.arange(solver.levels)[None, :] < dead[:, None])
    solver.values[rows[which], levels, boxes[which]] = values[which]
    return len(masks)
