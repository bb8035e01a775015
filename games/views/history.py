"""Finished games: the history list (the review of one game: ``views.review``)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from games import services
from games.forms import RULESET_CHOICES
from games.models import BOT_LEVELS, Game, Seat, bot_name
from games.names import name_key, tidy_name
from games.scorecard import column_heads
from games.services import MAX_SEATS
from games.tableview import RULESET_NAMES, options_text
from games.viewer import Viewer
from games.views.access import require_GET, viewer_looking
from games.views.as_good import names_as_played, played_as_good

PAGE_SIZE = 20


@require_GET
def history(request: HttpRequest) -> HttpResponse:
    viewer = viewer_looking(request)
    tab = "public" if request.GET.get("tab") == "public" else "mine"
    games = Game.objects.filter(status=Game.Status.FINISHED).prefetch_related("seats")
    games = games.filter(services.games_of(viewer) if tab == "mine" else Q(public=True))
    ruleset = request.GET.get("rules", "")
    if ruleset in RULESET_NAMES:
        games = games.filter(ruleset=ruleset)
    # tidied as the names it is compared with were: without control characters (a NUL,
    # which PostgreSQL refuses in a query, is left out: 'a<NUL>b' searches for 'ab')
    player = tidy_name(request.GET.get("player", ""))[:40]
    if player:
        games = games.filter(_named(player))
    games = games.distinct().order_by("-finished_at", "-id")
    page = Paginator(games, PAGE_SIZE).get_page(request.GET.get("page"))
    as_good = played_as_good(page)
    rows = [_summary(game, as_good) for game in page]
    return render(
        request,
        "games/history.html",
        {
            "tab": tab,
            "page": page,
            "rows": rows,
            "rules": ruleset,
            "player": player,
            "ruleset_choices": RULESET_CHOICES,
            "in_progress": in_progress(viewer) if tab == "mine" else [],
        },
    )


def _named(player: str) -> Q:
    """Games with a player whose name contains ``player``: the name as stored, or as
    this page shows it, compared as the site compares names (``names.name_key``:
    'äino' finds Äino, on SQLite too, whose LIKE ignores the case of ASCII letters
    only). A computer player the site named is shown in the reader's language
    (``Seat.shown_name``), and its stored name is its creator's: the names it can
    have here are few (a number and a strength), and are matched here."""
    wanted = name_key(player)
    named = Q(seats__name_key__contains=wanted)
    for level in BOT_LEVELS:
        numbers = [n for n in range(1, MAX_SEATS) if wanted in name_key(bot_name(n, level))]
        if numbers:
            named |= Q(
                seats__kind=Seat.Kind.BOT,
                seats__handed_from="",
                seats__bot_level=level,
                seats__bot_number__in=numbers,
            )
    return named


def in_progress(viewer: Viewer) -> list[dict]:
    """The games this browser is at that are not over, each with the way back to it."""
    return [
        {
            "url": reverse(
                "lobby" if game.status == Game.Status.LOBBY else "table", args=[game.code]
            ),
            "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
            "players": [seat.shown_name for seat in game.seats.all() if seat.name],
            "waiting": game.status == Game.Status.LOBBY,
        }
        for game in services.games_in_progress(viewer)
    ]


def _summary(game: Game, as_good: dict[tuple[int, int], str]) -> dict:
    state = game.started_state()
    names = names_as_played(
        game, {pos: how for (id_, pos), how in as_good.items() if id_ == game.id}
    )
    columns = column_heads(state, names)
    ranking = state.ranking()
    return {
        "game": game,
        "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
        "options": options_text(game),
        "players": [
            {"name": columns[index], "total": total, "winner": rank == 1}
            for rank, index, total in sorted(ranking, key=lambda r: r[1])
        ],
        "winners": [columns[index] for rank, index, _total in ranking if rank == 1],
    }
