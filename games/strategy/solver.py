"""Exact optimal play by backward induction over the turn.

A position between turns is (categories used, upper points so far capped at the bonus
threshold, and on Yahtzee tables whether the Yahtzee box holds 50). Its value is the
expected number of points still to come under optimal play: the turn is roll, keep,
roll, keep, roll, choose, with rolls and keeps as multisets (dice.py), and the choice
leads to a position with one more category used, valued before it. Positions are
solved from the full scorecard back to the empty one, a layer (number of categories
used) at a time, all positions of a layer at once in numpy.

Covered exactly: every rule set's scoring, the upper bonus (and Yatzy's 25 option), the
Yahtzee bonus and joker rule, forced order and upper section only. Not covered: declared
targets (the choice is made before the dice are known, which needs another state
layout) - advice is not offered on such tables.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

import numpy as np

from games import rules
from games.strategy.dice import DiceSpace, best_keep, dice_space, expect

CHUNK = 16_384  # positions solved together; bounds memory to a few hundred MB
JOKER_POINTS = rules.JOKER_POINTS
YAHTZEE_BONUS = 100


@dataclass(frozen=True)
class Variant:
    """What the solver needs of a table: rule set and the options that change play."""

    ruleset: str
    forced_order: bool = False
    upper_only: bool = False
    upper_bonus: int | None = None
    yahtzee_bonus: bool = True

    @classmethod
    def of(cls, ruleset: str, options: rules.TableOptions) -> Variant:
        if options.declared_target:
            raise ValueError("the solver does not cover declared-target tables")
        table = rules.get_ruleset(ruleset)
        # options that change nothing on this table name no other variant
        bonus = options.upper_bonus
        return cls(
            ruleset=ruleset,
            forced_order=options.forced_order,
            upper_only=options.upper_only,
            upper_bonus=None if bonus in (None, table.default_bonus) else bonus,
            yahtzee_bonus=options.yahtzee_bonus or not table.yahtzee_rules or options.upper_only,
        )

    @property
    def name(self) -> str:
        parts = [self.ruleset]
        parts += ["forced"] if self.forced_order else []
        parts += ["upper"] if self.upper_only else []
        parts += [f"bonus{self.upper_bonus}"] if self.upper_bonus else []
        parts += ["nobonus"] if not self.yahtzee_bonus else []
        return "-".join(parts)

    @cached_property
    def table(self) -> rules.RuleSet:
        return rules.get_ruleset(self.ruleset)

    @cached_property
    def keys(self) -> tuple[str, ...]:
        categories = self.table.upper_categories if self.upper_only else self.table.categories
        return tuple(c.key for c in categories)

    @property
    def threshold(self) -> int:
        return self.table.bonus_threshold

    @property
    def bonus(self) -> int:
        return self.table.default_bonus if self.upper_bonus is None else self.upper_bonus

    @property
    def jokers(self) -> bool:
        return self.table.yahtzee_rules and not self.upper_only

    @cached_property
    def yahtzee_index(self) -> int:
        return self.keys.index(self.table.all_alike_key) if self.jokers else -1


class Solver:
    """Value tables of one variant: ``values[mask, upper, box]`` = expected points to come."""

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
        shape = (1 << self.count, self.levels, self.boxes)
        self.values = np.zeros(shape, dtype=np.float32) if values is None else values

    # -- building -----------------------------------------------------------------------

    def build(self, progress=None, workers: int | None = None) -> np.ndarray:
        """Solve every reachable position, last layer first.

        The positions of a layer depend only on later layers, so each layer's chunks
        are shared out to forked worker processes (one per core), which read the
        tables solved so far from the parent's memory.
        """
        global _BUILDING
        layers = list(range(self.count - 1, -1, -1))
        total = sum(len(self._positions(n)[0]) for n in layers)
        workers = workers or os.cpu_count() or 1
        done = 0
        for used in layers:
            masks, ups, boxes = self._positions(used)
            chunks = [
                (masks[s : s + CHUNK], ups[s : s + CHUNK], boxes[s : s + CHUNK])
                for s in range(0, len(masks), CHUNK)
            ]
            _BUILDING = self
            if workers > 1 and len(chunks) > 1:
                context = multiprocessing.get_context("fork")
                with ProcessPoolExecutor(min(workers, len(chunks)), mp_context=context) as pool:
                    results = pool.map(_solve_chunk, chunks)
                    done = self._store(chunks, results, done, total, progress)
            else:
                done = self._store(chunks, map(_solve_chunk, chunks), done, total, progress)
        return self.values

    def _store(self, chunks, results, done: int, total: int, progress) -> int:
        for (masks, ups, boxes), values in zip(chunks, results, strict=True):
            self.values[masks, ups, boxes] = values
            done += len(values)
            if progress:
                progress(done, total)
        return done

    @property
    def expected_score(self) -> float:
        """Expected final score of a fresh game under optimal play."""
        return float(self.values[0, 0, 0])

    def _positions(self, used: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every reachable position with ``used`` categories filled."""
        if self.variant.forced_order:
            masks = [(1 << used) - 1]
        else:
            masks = [sum(1 << c for c in combo) for combo in combinations(range(self.count), used)]
        rows = []
        for mask in masks:
            upper_mask = mask & ((1 << 6) - 1) if self.upper[0] else 0
            levels = np.flatnonzero(self._reachable_upper[upper_mask])
            box_used = self.variant.jokers and mask >> self.variant.yahtzee_index & 1
            for box in (0, 1) if box_used else (0,):
                rows += [(mask, u, box) for u in levels]
        array = np.array(rows, dtype=np.int64).reshape(-1, 3)
        return array[:, 0], array[:, 1], array[:, 2]

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
        first = self.after_roll(masks, ups, boxes, rolls_left=2)
        return first @ self.space.roll_probability.astype(np.float32)

    def after_roll(
        self, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray, rolls_left: int
    ) -> np.ndarray:
        """(B, R): the value of standing on each roll with ``rolls_left`` rolls to go."""
        values = self.choose(masks, ups, boxes)
        for _ in range(rolls_left):
            values = best_keep(self.space, expect(self.space, values))
        return values

    def choose(self, masks: np.ndarray, ups: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(B, R): the best category's points plus the value of the position it leads to.

        A running maximum over the categories; an upper category's outcome depends on
        the roll only through how many dice show its face, so its follow-up values are
        gathered once per count, not once per roll. Rolls of five alike on a Yahtzee
        table (bonus, joker) are then done exactly by ``options``.
        """
        variant = self.variant
        batch = len(masks)
        used = ((masks[None, :] >> np.arange(self.count)[:, None]) & 1) == 1  # (C, B)
        if variant.forced_order:
            allowed = np.arange(self.count)[:, None] == np.argmin(used, axis=0)[None, :]
        else:
            allowed = ~used
        best = np.full((batch, len(self.space.rolls)), -np.inf, dtype=np.float32)
        dice = variant.table.dice_count
        for c in range(self.count):
            nxt = masks | (1 << c)
            if self.upper[c]:
                face = c + 1
                count = (self.scores[c] // face).astype(np.int64)  # (R,) dice showing face
                by_count = np.empty((batch, dice + 1), dtype=np.float32)
                for k in range(dice + 1):
                    total = ups + face * k
                    level = np.minimum(total, variant.threshold)
                    crossed = (ups < variant.threshold) & (total >= variant.threshold)
                    by_count[:, k] = (
                        self.values[nxt, level, boxes]
                        + face * k
                        + np.where(crossed, variant.bonus, 0)
                    )
                value = by_count[:, count]
            elif c == variant.yahtzee_index:
                box = (self.scores[c] > 0).astype(np.int64)
                follow = self.values[nxt[:, None], ups[:, None], box[None, :]]
                value = follow + self.scores[c][None, :]
            else:
                value = self.values[nxt, ups, boxes][:, None] + self.scores[c][None, :]
            np.maximum(best, np.where(allowed[c][:, None], value, -np.inf), out=best)
        if variant.jokers:
            alike = np.flatnonzero(self.alike)
            best[:, alike] = self.options(masks, ups, boxes, alike).max(axis=0)
        return best

    def options(
        self,
        masks: np.ndarray,
        ups: np.ndarray,
        boxes: np.ndarray,
        columns: np.ndarray | None = None,
    ) -> np.ndarray:
        """(C, B, R'): each category's points plus what follows, for the roll ``columns``
        (all rolls by default); -inf where the rules do not allow the category."""
        variant = self.variant
        columns = np.arange(len(self.space.rolls)) if columns is None else columns
        batch, rolls = len(masks), len(columns)
        out = np.full((self.count, batch, rolls), -np.inf, dtype=np.float32)
        allowed = self._allowed(masks)[:, :, columns]  # (C, B, R')
        joker = self._joker(masks)[:, columns]  # (B, R')
        alike_face = self.alike_face[columns]
        bonus = np.zeros((batch, rolls), dtype=np.float32)
        if variant.jokers and variant.yahtzee_bonus:
            bonus = np.where(joker & (boxes[:, None] == 1), YAHTZEE_BONUS, 0).astype(np.float32)
        for c, key in enumerate(variant.keys):
            points = np.broadcast_to(self.scores[c][columns], (batch, rolls)).astype(np.float32)
            if key in JOKER_POINTS and variant.jokers:
                matching_used = (masks[:, None] >> (alike_face - 1).clip(0)) & 1
                full = joker & (matching_used == 1)
                points = np.where(full, JOKER_POINTS[key], points)
            nxt = masks | (1 << c)
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

    def _joker(self, masks: np.ndarray) -> np.ndarray:
        """(B, R): five alike with the Yahtzee box already used."""
        if not self.variant.jokers:
            return np.zeros((len(masks), len(self.space.rolls)), dtype=bool)
        box_used = (masks >> self.variant.yahtzee_index) & 1
        return (box_used[:, None] == 1) & self.alike[None, :]

    def _allowed(self, masks: np.ndarray) -> np.ndarray:
        """(C, B, R): where each category may be scored, as the engine allows."""
        count, batch, rolls = self.count, len(masks), len(self.space.rolls)
        used = ((masks[None, :] >> np.arange(count)[:, None]) & 1) == 1  # (C, B)
        if self.variant.forced_order:
            first = np.argmin(used, axis=0)  # the first open category
            open_now = np.arange(count)[:, None] == first[None, :]
            return np.broadcast_to(open_now[:, :, None], (count, batch, rolls))
        allowed = np.broadcast_to(~used[:, :, None], (count, batch, rolls)).copy()
        if not self.variant.jokers:
            return allowed
        joker = self._joker(masks)
        lower = ~self.upper
        lower_open = (~used & lower[:, None]).any(axis=0)  # (B,)
        for face in range(1, 7):
            columns = self.alike_face == face
            matching_open = ~used[face - 1]  # (B,)
            rows = joker & columns[None, :]
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


def _solve_chunk(chunk: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    assert _BUILDING is not None
    return _BUILDING.turn_value(*chunk)
