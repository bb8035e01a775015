"""CPU a move costs the server's sync thread, measured in-process: the HTTP view with
its middleware and session, the service's transaction, and the tables rendered for the
browsers as the move commits. No network and no sockets, so it is steadier than the
load benchmark on a shared machine: compare commits with it (docs/performance.md).

    .venv/bin/python -m bench.movecost --games 4 --rounds 5
    .venv/bin/python -m bench.movecost --instructions        # needs valgrind, ~2 minutes

CPU time still moves with the machine's load by 10-30 %. ``--instructions`` counts the
machine instructions of the same moves under valgrind's callgrind instead, with seeded
dice: the same commit gives the same count to a fraction of a per cent, so two commits
compare in one run each, whatever else the machine is doing.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

from bench import callgrind
from bench.scenarios import prepare_site


def play(moves: int) -> tuple[int, float]:
    """One 4-player table at one screen, every seat connected and one spectator
    watching: the moves made and the CPU seconds they took."""
    from django.test import Client

    from games.models import Game, Seat
    from games.rules import scoring_options

    host = Client(HTTP_HOST="localhost")
    new = {"name": "Ann", "ruleset": "yatzy", "players": "Ben\nCai\nDee", "invites": "0"}
    created = host.post("/games/new/", {**new, "teams": "0", "upper_bonus": "50"})
    code = re.search(r"/g/([^/]+)/", created["Location"]).group(1)
    Seat.objects.filter(game__code=code).update(connections=1)
    Game.objects.filter(code=code).update(spectators=1)
    made, cpu = 0, 0.0
    while made < moves:
        game = Game.objects.get(code=code)
        state = game.engine_state()
        if state.is_finished:
            break
        if state.roll_number < 2:
            path, data = "roll", {"version": game.version}
        else:
            category = next(iter(scoring_options(state)))
            path, data = "score", {"version": game.version, "category": category, "confirm": "1"}
        started = time.process_time()
        answer = host.post(f"/g/{code}/{path}/", data, HTTP_HX_REQUEST="true")
        cpu += time.process_time() - started
        if answer.status_code != 200:
            raise SystemExit(f"move refused ({answer.status_code}): {answer.content[:500]!r}")
        made += 1
    return made, cpu


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="tables played per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=1000, help="at most, per table")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions under callgrind"
    )
    parser.add_argument("--under-callgrind", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.instructions:
        return instructions(args.moves)
    prepare_site(tempfile.mkdtemp(prefix="yatzy-movecost-"))
    if args.under_callgrind:
        return counted_moves(args.moves)
    play(30)  # warm up: templates compiled, connections open
    per_round = []
    for _ in range(args.rounds):
        results = [play(args.moves) for _ in range(args.games)]
        moves = sum(made for made, _cpu in results)
        per_round.append(1000 * sum(cpu for _made, cpu in results) / moves)
    figures = {
        "moves_per_round": moves,
        "cpu_ms_per_move_min": round(min(per_round), 2),
        "cpu_ms_per_move_median": round(statistics.median(per_round), 2),
    }
    print(
        f"{moves} moves a round, {args.rounds} rounds: CPU per move "
        f"min {figures['cpu_ms_per_move_min']} ms, median {figures['cpu_ms_per_move_median']} ms"
    )
    return figures


def instructions(moves: int) -> dict:
    """Run this module under callgrind, instrumented only while one seeded table plays;
    print and return the instructions a move costs."""
    if not callgrind.available():
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    wrapper, out = callgrind.wrapper()
    command = [
        *wrapper,
        sys.executable,
        "-m",
        "bench.movecost",
        "--under-callgrind",
        "--moves",
        str(moves),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    child = subprocess.run(command, env=env, capture_output=True, text=True)
    made = re.search(r"^moves (\d+)$", child.stdout, re.MULTILINE)
    counted = callgrind.total(out)
    if child.returncode != 0 or made is None or counted is None:
        raise SystemExit(f"callgrind run failed:\n{child.stderr[-3000:]}")
    figures = {
        "moves": int(made.group(1)),
        "instructions_per_move_m": round(counted / int(made.group(1)) / 1e6, 2),
    }
    print(f"{figures['moves']} moves: {figures['instructions_per_move_m']} M instructions a move")
    return figures


def counted_moves(moves: int) -> dict:
    """In the process callgrind runs: warm up, then one table of seeded dice with the
    instrumentation on around its moves and nothing else."""
    from games.rules import RandomDice
    from games.services import core

    warm_up = RandomDice(random.Random(7))
    core.dice_of_seed = lambda seed: warm_up
    play(30)
    counted = RandomDice(random.Random(1))
    core.dice_of_seed = lambda seed: counted
    callgrind.switch(True, os.getpid())
    made, _cpu = play(moves)
    callgrind.switch(False, os.getpid())
    print(f"moves {made}")
    return {"moves": made}


if __name__ == "__main__":
    main()
