"""Scoring written a second way, straight from RULES.md, to check the engine against.

Deliberately not the engine's code: it searches faces and groups by brute force.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations


def best_kind(dice: tuple[int, ...], n: int) -> int:
    counts = Counter(dice)
    return max([n * face for face in counts if counts[face] >= n], default=0)


def best_groups(dice: tuple[int, ...], sizes: tuple[int, ...]) -> int:
    """Best sum of size_i x face_i over different faces with enough dice each."""
    counts = Counter(dice)
    best = 0
    for faces in permutations(range(1, 7), len(sizes)):
        if all(counts[f] >= size for f, size in zip(faces, sizes, strict=True)):
            best = max(best, sum(f * size for f, size in zip(faces, sizes, strict=True)))
    return best


def best_pairs(dice: tuple[int, ...], n: int) -> int:
    counts = Counter(dice)
    options = [
        faces for faces in combinations(range(1, 7), n) if all(counts[f] >= 2 for f in faces)
    ]
    return max([2 * sum(faces) for faces in options], default=0)


def has_run(dice: tuple[int, ...], length: int) -> bool:
    present = set(dice)
    return any(set(range(start, start + length)) <= present for start in range(1, 8 - length))


def reference(ruleset: str, key: str, dice: tuple[int, ...]) -> int:
    counts = Counter(dice)
    uppers = ["ones", "twos", "threes", "fours", "fives", "sixes"]
    if key in uppers:
        face = uppers.index(key) + 1
        return face * counts[face]
    alike = len(counts) == 1
    if ruleset == "yahtzee":
        return {
            "three_of_a_kind": sum(dice) if max(counts.values()) >= 3 else 0,
            "four_of_a_kind": sum(dice) if max(counts.values()) >= 4 else 0,
            "full_house": 25 if sorted(counts.values()) == [2, 3] else 0,
            "small_straight": 30 if has_run(dice, 4) else 0,
            "large_straight": 40 if has_run(dice, 5) else 0,
            "yahtzee": 50 if alike else 0,
            "chance": sum(dice),
        }[key]
    table = {
        "one_pair": best_kind(dice, 2),
        "two_pairs": best_pairs(dice, 2),
        "three_pairs": sum(dice) if best_pairs(dice, 3) else 0,
        "three_of_a_kind": best_kind(dice, 3),
        "four_of_a_kind": best_kind(dice, 4),
        "five_of_a_kind": best_kind(dice, 5),
        "small_straight": 15 if {1, 2, 3, 4, 5} <= set(dice) else 0,
        "large_straight": 20 if {2, 3, 4, 5, 6} <= set(dice) else 0,
        "full_straight": 21 if set(dice) == {1, 2, 3, 4, 5, 6} else 0,
        "full_house": best_groups(dice, (3, 2)),
        "house": sum(dice) if best_groups(dice, (3, 3)) else 0,
        "tower": sum(dice) if best_groups(dice, (4, 2)) else 0,
        "chance": sum(dice),
        "yatzy": 50 if alike else 0,
        "maxi_yatzy": 100 if alike else 0,
    }
    if ruleset == "yatzy" and key in {"small_straight", "large_straight"}:
        target = {1, 2, 3, 4, 5} if key == "small_straight" else {2, 3, 4, 5, 6}
        return (15 if key == "small_straight" else 20) if sorted(dice) == sorted(target) else 0
    if ruleset == "yatzy" and key == "full_house":
        return sum(dice) if sorted(counts.values()) == [2, 3] else 0
    return table[key]
