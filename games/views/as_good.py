"""A Perfect computer player that played as Good, as the history and the review say it.

Without its tables (not built yet, or none for the rules) a Perfect computer player plays
as Good, and its moves are logged with ``played_as`` (``services.bot_move``): the history
and the review say so, or a reader learns that "Perfect" lost points it never played for.
A game logged before that shows as it did."""

from __future__ import annotations

from django.db.models import Count, Q
from django.utils.translation import gettext

from games.models import Game, GameEvent, Seat
from games.tableview import seat_names


def played_as_good(games) -> dict[tuple[int, int], str]:
    """(game id, seat position) -> "all" or "partly", for the seats of ``games`` a
    computer player played in part or all below its level: one query for a page."""
    rows = (
        GameEvent.objects.filter(game__in=list(games), seat_position__isnull=False)
        .filter(Q(kind=GameEvent.Kind.SCORE) | Q(data__has_key="played_as"))
        .values("game_id", "seat_position")
        .annotate(
            turns=Count("id", filter=Q(kind=GameEvent.Kind.SCORE)),
            turns_as_good=Count(
                "id", filter=Q(kind=GameEvent.Kind.SCORE, data__has_key="played_as")
            ),
            moves_as_good=Count("id", filter=Q(data__has_key="played_as")),
        )
    )
    # Tables that were missing stay built once they are: a seat whose every turn ended
    # as Good played every move as Good.
    return {
        (row["game_id"], row["seat_position"]): (
            "all" if row["turns_as_good"] == row["turns"] else "partly"
        )
        for row in rows
        # (no position is None: the query leaves those out; said again for mypy)
        if row["moves_as_good"] and row["seat_position"] is not None
    }


def turns_as_good(steps) -> dict[int, tuple[int, int]]:
    """Seat position -> (its turns, those in which it played a move as Good), for the
    seats that did."""
    turns: dict[int, set[int]] = {}
    as_good: dict[int, set[int]] = {}
    for step in steps:
        position = step.event.seat_position
        if position is None:
            continue
        turns.setdefault(position, set()).add(step.before.turn)
        if step.event.data.get("played_as"):
            as_good.setdefault(position, set()).add(step.before.turn)
    return {position: (len(turns[position]), len(good)) for position, good in as_good.items()}


def how_as_good(turns: int, as_good: int) -> str:
    return "all" if as_good >= turns else "partly"


def _perfect_bot(seat: Seat) -> bool:
    """A seat named as the site's Perfect computer player (not a player's handed over)."""
    named = seat.kind == Seat.Kind.BOT and seat.bot_number and not seat.handed_from
    return bool(named) and seat.bot_level == "perfect"


def names_as_played(game: Game, as_good: dict[int, str]) -> dict[int, str]:
    """The seats' names by player index, a Perfect computer player's saying that it
    played as Good (``as_good``: seat position -> "all" or "partly")."""
    names = seat_names(game)
    for seat in game.all_seats():
        how = as_good.get(seat.position)
        if how and seat.player_index is not None and _perfect_bot(seat):
            number = {"number": seat.bot_number}
            if how == "all":
                names[seat.player_index] = (
                    gettext("Computer %(number)s (Perfect, played as Good)") % number
                )
            else:
                names[seat.player_index] = (
                    gettext("Computer %(number)s (Perfect, partly played as Good)") % number
                )
    return names


def played_as_good_notes(game: Game, counts: dict[int, tuple[int, int]]) -> list[str]:
    """Why each Perfect computer player of the review played as Good, and how much."""
    notes = []
    for seat in game.all_seats():
        if seat.position not in counts or not _perfect_bot(seat):
            continue
        turns, as_good = counts[seat.position]
        values = {"name": seat.shown_name, "count": as_good, "turns": turns}
        if as_good >= turns:
            text = gettext(
                "%(name)s played as Good: its strategy tables were not ready when it played."
            )
        else:
            text = gettext(
                "%(name)s played as Good in %(count)s of its %(turns)s turns, while its"
                " strategy tables were not ready."
            )
        notes.append(text % values)
    return notes
