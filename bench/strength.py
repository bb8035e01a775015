"""How strong each computer level is: mean final score of solitaire games through the
rules engine, with its standard error, against the solver's exact optimum.

    .venv/bin/python -m bench.strength [--games 1000] [--rulesets yatzy,yahtzee,maxi_yatzy]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games import rules
from games.strategy import advice, bots, tables
from games.strategy.solver import Variant


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rulesets", default="yatzy,yahtzee,maxi_yatzy")
    parser.add_argument("--levels", default=",".join(bots.LEVELS))
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    for ruleset in ("yatzy", "yahtzee"):
        timing(ruleset)
    print(
        f"{'rule set':<11} {'level':<9} {'mean':>7} {'s.e.':>5} {'vs optimum':>11} {'ms/game':>8}"
    )
    for ruleset in args.rulesets.split(","):
        solver = tables.load(Variant(ruleset))
        optimum = solver.expected_score if solver else None
        for level in args.levels.split(","):
            rng = random.Random(args.seed)
            started = time.perf_counter()
            scores = [
                bots.play(rules.new_game(ruleset, [[0]]), {0: level}, rng, rules.RandomDice(rng))
                .totals(0)
                .total
                for _ in range(args.games)
            ]
            elapsed = (time.perf_counter() - started) * 1000 / args.games
            mean = statistics.fmean(scores)
            error = statistics.stdev(scores) / len(scores) ** 0.5
            gap = f"{mean - optimum:+.1f}" if optimum else "n/a"
            print(
                f"{ruleset:<11} {level:<9} {mean:7.1f} {error:5.1f} {gap:>11} {elapsed:8.1f}",
                flush=True,
            )


def timing(ruleset: str) -> None:
    """Load time of the value tables (memory-mapped) and time per advice, every choice
    ranked, over the positions of a few games."""
    tables._LOADED.pop(Variant(ruleset), None)
    started = time.perf_counter()
    solver = tables.load(Variant(ruleset))
    if solver is None:
        print(f"{ruleset}: tables not built (manage.py solve)")
        return
    loaded = (time.perf_counter() - started) * 1000
    rng = random.Random(1)
    positions = []
    for _ in range(20):
        state = rules.new_game(ruleset, [[0]])
        while not state.is_finished:
            move = bots.choose_move(state, "good", rng)
            if state.roll_number:
                positions.append(state)
            state = rules.apply(state, 0, move, rules.RandomDice(rng))
    started = time.perf_counter()
    for state in positions:
        advice.advise(state, solver)
    each = (time.perf_counter() - started) * 1000 / len(positions)
    print(f"{ruleset}: tables loaded in {loaded:.1f} ms; advice {each:.2f} ms per position")


if __name__ == "__main__":
    main()
