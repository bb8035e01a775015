"""Rebuild a game from its event log, step by step, through the engine.

The log holds every roll's dice and held dice and every scoring; replaying it with
those dice gives each intermediate state, for the review page and for checks that
the stored state is what the log says.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games import rules
from games.models import Game, GameEvent

PLAY_EVENTS = (
    GameEvent.Kind.ROLL,
    GameEvent.Kind.HOLD,
    GameEvent.Kind.DECLARE,
    GameEvent.Kind.SCORE,
    GameEvent.Kind.SKIP,
)


@dataclass(frozen=True)
class Step:
    event: GameEvent
    player: int  # the seat that acted (engine player index)
    before: rules.GameState
    after: rules.GameState


def replay(game: Game) -> list[Step]:
    """Every play event of ``game`` with the states before and after it."""
    seats = {seat.player_index: seat for seat in game.all_seats() if seat.player_index is not None}
    teams: dict[object, list[int]] = {}
    for player in sorted(seats):
        team = seats[player].team
        key = ("team", team) if team is not None else ("solo", player)
        teams.setdefault(key, []).append(player)
    # The automatic first rolls are in the log as ordinary rolls.
    options = replace(game.table_options, auto_first_roll=False)
    state = rules.new_game(game.ruleset, list(teams.values()), options)
    steps = []
    for event in game.events.filter(kind__in=PLAY_EVENTS):
        player = state.to_move
        after = _apply(state, player, event)
        steps.append(Step(event=event, player=player, before=state, after=after))
        state = after
    return steps


def _apply(state: rules.GameState, player: int, event: GameEvent) -> rules.GameState:
    """The logged ``event`` played again, with the dice it logged."""
    data = event.data
    held = tuple(data["held"]) if "held" in data else None
    move = rules.Move(event.kind, held, data.get("category", ""))
    dice = None
    if event.kind == GameEvent.Kind.ROLL:
        kept = (state.held if held is None else held) if state.roll_number else ()
        dice = rules.ScriptedDice(face for i, face in enumerate(data["dice"]) if i not in kept)
    return rules.apply(state, player, move, dice)
