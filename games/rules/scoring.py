"""Scoring functions: each takes face counts (``counts[f]`` dice show ``f``) and
returns the category's base score, 0 when the dice do not meet it."""

from __future__ import annotations

from collections.abc import Callable

Counts = tuple[int, ...]
Scorer = Callable[[Counts], int]

_FACES_HIGH_FIRST = (6, 5, 4, 3, 2, 1)


def dice_sum(counts: Counts) -> int:
    return sum(face * counts[face] for face in range(1, 7))


def upper(face: int) -> Scorer:
    def score(counts: Counts) -> int:
        return face * counts[face]

    return score


def kind(n: int) -> Scorer:
    """n×v for the highest face v shown at least n times (one pair, three of a kind...)."""

    def score(counts: Counts) -> int:
        for face in _FACES_HIGH_FIRST:
            if counts[face] >= n:
                return n * face
        return 0

    return score


def kind_sum(n: int) -> Scorer:
    """The sum of all dice if some face shows at least n times (Yahtzee's 3/4 of a kind)."""

    def score(counts: Counts) -> int:
        return dice_sum(counts) if max(counts) >= n else 0

    return score


def pairs(n: int) -> Scorer:
    """2×a + 2×b (+ 2×c) for the n highest different faces shown at least twice."""

    def score(counts: Counts) -> int:
        faces = [face for face in _FACES_HIGH_FIRST if counts[face] >= 2][:n]
        return 2 * sum(faces) if len(faces) == n else 0

    return score


def groups(first: int, second: int) -> Scorer:
    """first×a + second×b for different faces a, b, the best such choice.

    Full house is groups(3, 2), Maxi's house groups(3, 3) and tower groups(4, 2);
    on 5 dice (or 6 for house and tower) that is the sum of the dice.
    """

    def score(counts: Counts) -> int:
        best = 0
        for a in range(1, 7):
            if counts[a] < first:
                continue
            for b in range(1, 7):
                if b != a and counts[b] >= second:
                    best = max(best, first * a + second * b)
        return best

    return score


def fixed_groups(first: int, second: int, points: int) -> Scorer:
    """``points`` when some face shows ``first`` times and another ``second`` times."""
    best = groups(first, second)

    def score(counts: Counts) -> int:
        return points if best(counts) else 0

    return score


def contains(faces: tuple[int, ...], points: int) -> Scorer:
    """``points`` when every face in ``faces`` is among the dice."""

    def score(counts: Counts) -> int:
        return points if all(counts[face] for face in faces) else 0

    return score


def any_run(length: int, points: int) -> Scorer:
    """``points`` for ``length`` faces in sequence among the dice (Yahtzee straights)."""
    runs = [tuple(range(start, start + length)) for start in range(1, 8 - length)]

    def score(counts: Counts) -> int:
        return points if any(all(counts[f] for f in run) for run in runs) else 0

    return score


def all_alike(points: int) -> Scorer:
    def score(counts: Counts) -> int:
        return points if max(counts) == sum(counts) else 0

    return score


def chance(counts: Counts) -> int:
    return dice_sum(counts)
