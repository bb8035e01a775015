"""CPU a move costs the server's sync thread, measured in-process: the HTTP view with
its middleware and session, the service's transaction, and the tables rendered for the
browsers as the move commits. No network and no sockets, so it is steadier than the
load benchmark on a shared machine: compare commits with it (docs/performance.md).

    .venv/bin/python -m bench.movecost --games 4 --rounds 5
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time

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
    args = parser.parse_args(argv)
    prepare_site(tempfile.mkdtemp(prefix="yatzy-movecost-"))
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


if __name__ == "__main__":
    main()
