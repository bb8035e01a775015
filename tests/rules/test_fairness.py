"""Committed dice (games.rules.fairness): the derivation, its lack of bias, and the
check that a changed roll, seed or commitment fails."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games import rules
from games.rules import fairness

SEED = "00" * 31 + "2a"
ROOT = Path(__file__).resolve().parents[2]


def played_export(seed: str = SEED) -> dict:
    """A one-player upper-section game played with the seed's dice, exported."""
    dice = fairness.CommittedDice(seed)
    state = rules.new_game("yatzy", [[0]], rules.TableOptions(upper_only=True))
    rolls = []
    choose = random.Random(5)
    while not state.is_finished:
        held = None
        for _ in range(choose.randint(1, 3)):
            state = rules.roll(state, 0, dice, held)
            rolls.append(fairness.Roll(state.turn, state.roll_number, state.held, state.dice))
            held = choose.sample(range(5), choose.randint(0, 4))
        state = rules.score(state, 0, state.open_categories()[0])
    return fairness.export("abc", seed, fairness.commitment(seed), rolls)


def test_the_commitment_is_the_sha256_of_the_seeds_bytes() -> None:
    assert fairness.commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


def test_a_face_is_the_first_accepted_byte_of_the_hmac_as_documented() -> None:
    key = bytes.fromhex(SEED)
    for turn, roll_number, position in [(0, 1, 0), (7, 2, 3), (12, 3, 4)]:
        for counter in range(50):
            message = b"".join(n.to_bytes(4, "big") for n in (turn, roll_number, position, counter))
            byte = hmac.new(key, message, hashlib.sha256).digest()[0]
            if byte < 252:
                break
        assert fairness.face(key, turn, roll_number, position) == byte % 6 + 1


def test_a_held_die_keeps_its_face_and_the_others_come_from_their_positions() -> None:
    dice = fairness.CommittedDice(SEED)
    state = rules.new_game("yatzy", [[0]])
    state = rules.roll(state, 0, dice)
    first = state.dice
    state = rules.roll(state, 0, dice, held=[1, 3])
    assert state.dice[1] == first[1] and state.dice[3] == first[3]
    for position in (0, 2, 4):
        assert state.dice[position] == dice.face(0, 2, position)


def test_every_face_has_as_many_of_the_bytes_kept() -> None:
    faces = [fairness.face_of_byte(byte) for byte in range(256)]
    assert faces.count(None) == 4
    assert [faces.count(f) for f in rules.FACES] == [42] * 6


def test_the_faces_show_no_bias_over_60000_draws() -> None:
    key = bytes.fromhex(SEED)
    counts = [0] * 6
    for turn in range(1000):
        for roll_number in (1, 2, 3):
            for position in range(20):
                counts[fairness.face(key, turn, roll_number, position) - 1] += 1
    draws = sum(counts)
    assert draws == 60000
    expected = draws / 6
    chi_square = sum((count - expected) ** 2 / expected for count in counts)
    # 5 degrees of freedom: above 20.52 one time in a thousand for fair dice
    assert chi_square < 20.52, counts


def test_a_game_played_with_its_seed_checks_out() -> None:
    exported = played_export()
    verdict = fairness.verify(exported)
    assert verdict.ok, verdict.problem
    assert verdict.rolls == len(exported["rolls"]) > 6


def test_a_changed_roll_fails_the_check_and_is_named() -> None:
    exported = played_export()
    changed = copy.deepcopy(exported)
    roll = changed["rolls"][4]
    free = next(p for p in range(5) if p not in roll["held"])
    roll["dice"][free] = roll["dice"][free] % 6 + 1
    verdict = fairness.verify(changed)
    assert not verdict.ok
    assert verdict.bad_roll == 5
    assert f"die {free + 1} shows" in verdict.problem


def test_a_changed_held_die_fails_the_check() -> None:
    exported = played_export()
    changed = copy.deepcopy(exported)
    number, roll = next((i, r) for i, r in enumerate(changed["rolls"], 1) if r["held"])
    roll["dice"][roll["held"][0]] = roll["dice"][roll["held"][0]] % 6 + 1
    verdict = fairness.verify(changed)
    assert not verdict.ok and verdict.bad_roll == number


def test_a_changed_seed_fails_the_check() -> None:
    exported = played_export()
    exported["seed"] = "00" * 31 + "2b"
    verdict = fairness.verify(exported)
    assert not verdict.ok
    assert "fingerprint" in verdict.problem


def test_a_changed_commitment_fails_the_check() -> None:
    exported = played_export()
    exported["commitment"] = fairness.commitment("11" * 32)
    verdict = fairness.verify(exported)
    assert not verdict.ok
    assert "fingerprint" in verdict.problem


def test_another_seed_with_its_own_commitment_does_not_give_the_rolls() -> None:
    exported = played_export()
    other = "ff" * 32
    exported["seed"], exported["commitment"] = other, fairness.commitment(other)
    verdict = fairness.verify(exported)
    assert not verdict.ok and verdict.bad_roll is not None


@pytest.mark.parametrize(
    "broken",
    [
        None,
        [],
        {"format": "something else"},
        {"format": fairness.FORMAT, "seed": "xyz", "commitment": "", "rolls": []},
        {"format": fairness.FORMAT, "seed": SEED, "commitment": 5, "rolls": []},
        {"format": fairness.FORMAT, "seed": SEED, "commitment": "", "rolls": [{"turn": 0}]},
        {
            "format": fairness.FORMAT,
            "seed": SEED,
            "commitment": fairness.commitment(SEED),
            "rolls": [{"turn": 0, "roll_number": 9, "held": [], "dice": [1]}],
        },
    ],
)
def test_a_broken_export_is_refused_with_a_reason(broken: object) -> None:
    verdict = fairness.verify(broken)
    assert not verdict.ok
    assert verdict.problem.startswith("not an export of committed dice")


def test_the_standalone_check_reads_an_exported_file(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    exported = played_export()
    good.write_text(json.dumps(exported))
    exported["rolls"][0]["dice"][0] = exported["rolls"][0]["dice"][0] % 6 + 1
    bad.write_text(json.dumps(exported))

    def run(path: Path) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "games.rules.fairness", str(path)]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)

    passed, failed = run(good), run(bad)
    assert passed.returncode == 0 and "rolls match" in passed.stdout
    assert failed.returncode == 1 and "roll 1 (turn 1, roll 1): die 1 shows" in failed.stderr
    assert fairness.verify_file(tmp_path / "missing.json").problem.startswith("cannot read")
