"""A finished game in its players' records, and their ratings worked out again.

Run after the game's last move has committed, on the records' thread
(``background.run``): the analysis of a game (its replay, each decision priced by the
solver) takes a good part of a second, which no move waits for. A player who signs up
or logs in has the finished games of their browser recorded the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.dispatch import receiver

from games.analysis import analyse
from games.models import Game, GameEvent, Seat
from games.signals import game_finished
from players import background, rating
from players.models import Player, Record


@receiver(game_finished)
def _game_finished(sender: Any, game_id: int, **kwargs: Any) -> None:
    background.run(record_game, game_id)


def own_seat(seats: Iterable[Seat], browser_id: str) -> Seat | None:
    """The seat of the account of ``browser_id`` at a game: the first of those its
    browser holds that a person plays (at a hot-seat table, the account's own browser
    holds its friends' seats too: the host's own comes first, ``forms.seat_specs``)."""
    return next(
        (
            seat
            for seat in sorted(seats, key=lambda s: s.position)
            if seat.browser_id == browser_id
            and seat.player_index is not None
            and (seat.kind != Seat.Kind.BOT or seat.handed_from)
        ),
        None,
    )


def record_game(game_id: int) -> None:
    """Record the finished game of ``game_id`` for every account at it, then analyse it
    for their ratings."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return
    seats = list(game.seats.all())
    browsers = {seat.browser_id for seat in seats if seat.browser_id}
    records = []
    for player in Player.objects.filter(browser_id__in=browsers):
        seat = own_seat(seats, player.browser_id)
        if seat is not None:
            made = _record(game, seat, player)
            if made is not None:
                records.append(made)
    _rate(game, records)


def record_player(player_id: int) -> None:
    """Record every finished game of the player's browser id not yet in their records
    (their browser's, as they sign up or log in)."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return
    recorded = player.records.values("game_id")
    games = (
        Game.objects.filter(status=Game.Status.FINISHED, seats__browser_id=player.browser_id)
        .exclude(pk__in=recorded)
        .distinct()
    )
    for game_id in games.values_list("pk", flat=True):
        record_game(game_id)


def _record(game: Game, seat: Seat, player: Player) -> Record | None:
    """The player's record of ``game``, made now; None if it was made already."""
    state = game.started_state()
    index = state.scorecard_of(seat.player_index or 0)
    totals = state.totals(index)
    ranking = {card: rank for rank, card, _total in state.ranking()}
    handed = game.events.filter(kind=GameEvent.Kind.HANDOVER, seat_position=seat.position)
    rated = (
        not state.options.upper_only
        and len(state.scorecards[index].players) == 1
        and not handed.exists()
    )
    try:
        with transaction.atomic():
            return Record.objects.create(
                player=player,
                game=game,
                position=seat.position,
                ruleset=game.ruleset,
                finished_at=game.finished_at or game.created_at,
                score=totals.total,
                scorecards=len(state.scorecards),
                won=len(state.scorecards) > 1 and ranking[index] == 1,
                yatzy=state.scorecards[index].points().get(state.ruleset.all_alike_key, 0) > 0,
                upper_bonus=totals.bonus > 0,
                rated=rated,
            )
    except IntegrityError:  # recorded by another process meanwhile
        return None


def _rate(game: Game, records: list[Record]) -> None:
    """Analyse ``game`` for the rated ``records`` of it, and rate their players again."""
    rated = [record for record in records if record.rated]
    if not rated:
        return
    analysis = analyse(game)
    if analysis.unavailable:
        return  # no tables for these rules (yet): ``manage.py rate`` tries again
    state = game.started_state()
    for record in rated:
        seat = next(s for s in game.seats.all() if s.position == record.position)
        card = analysis.cards[state.scorecard_of(seat.player_index or 0)]
        record.lost = round(card.total_loss, 2)
        record.save(update_fields=["lost"])
        rating.rate(record.player, record.ruleset)


def rate_missing() -> int:
    """Analyse every rated record that has no loss yet (a process stopped before it, or
    the tables were missing then) and rate its player again; how many were."""
    done = 0
    for record in Record.objects.filter(rated=True, lost__isnull=True).select_related("game"):
        _rate(record.game, [record])
        done += Record.objects.filter(pk=record.pk, lost__isnull=False).exists()
    return done
