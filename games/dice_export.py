"""A finished game's committed dice as anyone can check them (``rules.fairness``):
the seed, its fingerprint and every roll, read from the game's log."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import ActionError
from games.models import Game, GameEvent
from games.replay import replay
from games.rules import fairness


def rolls_of(game: Game) -> list[fairness.Roll]:
    """Every roll of ``game`` in order, with the turn and roll it was and the dice held."""
    return [
        fairness.Roll(step.after.turn, step.after.roll_number, step.after.held, step.after.dice)
        for step in replay(game)
        if step.event.kind == GameEvent.Kind.ROLL
    ]


def dice_export(game: Game) -> dict:
    """The export of a finished game with committed dice; ``ActionError`` otherwise."""
    if not game.dice_seed:
        raise ActionError(
            _("This game was played before the dice were committed: it has none to check."),
            code="no_seed",
            status=404,
        )
    if game.status == Game.Status.FINISHED and not game.revealed_seed:
        raise ActionError(
            _("A daily challenge's seed stays secret until its day is over (midnight UTC)."),
            code="day_not_over",
            status=409,
        )
    if not game.revealed_seed:
        raise ActionError(
            _("The dice seed stays secret until the game is over."),
            code="not_finished",
            status=409,
        )
    return fairness.export(game.code, game.revealed_seed, game.dice_commitment, rolls_of(game))
