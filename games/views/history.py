"""Finished games: the history list and the turn-by-turn review of one game."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import formats
from django.utils.cache import patch_vary_headers
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import daily, leaderboard, services
from games.analysis import analyse, chart
from games.bidi import isolated
from games.dice_export import dice_export
from games.errors import ActionError
from games.forms import RULESET_CHOICES
from games.models import BOT_LEVELS, DailyAttempt, Game, GameEvent, Seat, bot_name
from games.names import name_key, tidy_name
from games.replay import replay
from games.scorecard import column_heads, column_titles, scorecard_rows
from games.seating import browsers_seat
from games.services import MAX_SEATS
from games.strategy.solver import Variant
from games.tableview import RULESET_NAMES, options_text, seat_names
from games.viewer import Viewer
from games.views.access import HtmxHttpRequest, error_page, require_GET, viewer_looking

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
    as_good = _played_as_good(page)
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
    names = _names(game, {pos: how for (id_, pos), how in as_good.items() if id_ == game.id})
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


@require_GET
def review(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        game = services.get_game(code)
    except ActionError as error:
        return error_page(request, error)
    if game.status != Game.Status.FINISHED:
        not_over = ActionError(gettext("The review opens when the game is over."), status=409)
        return error_page(request, not_over, back=reverse("table", args=[code]))
    # a daily challenge's game shows the day's dice: before the day is over, only to
    # its player
    if (
        not game.seed_revealable
        and browsers_seat(game.seats.all(), viewer_looking(request)) is None
    ):
        return error_page(request, DAILY_NOT_YET)
    steps = replay(game)
    turns_as_good = _turns_as_good(steps)
    # the summaries name a Perfect player that played as Good so; its steps keep its
    # name short, their verdicts say "(played as Good)" where it did
    names = seat_names(game)
    summary_names = _names(game, {pos: _how(*counts) for pos, counts in turns_as_good.items()})
    try:
        step = min(max(int(request.GET.get("step", len(steps))), 0), len(steps))
    except ValueError:
        step = len(steps)
    state = steps[step - 1].after if step else (steps[0].before if steps else game.started_state())
    analysis = analyse(game, steps)
    turns = _turns(steps, names, analysis)
    heads = column_heads(state, summary_names)
    final = game.started_state()
    final_heads = column_heads(final, summary_names)
    context = {
        "game": game,
        "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
        "heads": tuple(zip(heads, column_titles(state, summary_names), strict=True)),
        "rows": scorecard_rows(state, {}, live=False, declaring=False),
        "bonus_line": state.ruleset.bonus_threshold,
        "current_column": None,
        "step": step,
        "steps": len(steps),
        "shown": steps[step - 1] if step else None,
        "dice": _dice_shown(steps[step - 1]) if step else [],
        "shown_text": _describe(steps[step - 1], names) if step else "",
        "turns": turns,
        "decision": analysis.decisions.get(step),
        "played_as_good": _played_as_good_notes(game, turns_as_good),
        "daily": _daily_result(daily.attempt_of(game)),
        **_analysis_context(game, analysis, heads, len(state.categories)),
        "ranking": [
            {"rank": rank, "name": final_heads[i], "total": total}
            for rank, i, total in final.ranking()
        ],
    }
    # A step's address is pushed into the browser's history: going back to one htmx
    # no longer has asks for the whole page, and the browser's cache keeps the two apart.
    stepping = request.htmx and not request.htmx.history_restore_request
    template = "games/review.html#stepper" if stepping else "games/review.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


DAILY_NOT_YET = ActionError(
    _(
        "Everyone plays the same dice in a daily challenge: its games can be reviewed by"
        " the other players once the day is over (midnight UTC)."
    ),
    status=403,
)


def _daily_result(attempt: DailyAttempt | None) -> dict | None:
    """The review's account of a daily challenge's game: the score against the par."""
    if attempt is None:
        return None
    challenge = attempt.challenge
    return {
        "day": formats.date_format(challenge.day, "DATE_FORMAT"),
        "name": attempt.name,
        "score": attempt.score,
        "par": leaderboard.par_of(challenge),
        "result": attempt.result,
        "url": daily.day_url(challenge),
    }


@require_GET
def dice(request: HttpRequest, code: str) -> HttpResponse:
    """A finished game's committed dice as JSON, for the review's check and for anyone
    to check on their own (``rules.fairness.verify``); a refusal as JSON too."""
    try:
        exported = dice_export(services.get_game(code))
    except ActionError as error:
        return JsonResponse({"error": str(error.message)}, status=error.status)
    response = JsonResponse(exported)
    response["Content-Disposition"] = f'inline; filename="yatzy-dice-{exported["game"]}.json"'
    return response


# -- a Perfect computer player that played as Good ------------------------------------------
# Without its tables (not built yet, or none for the rules) a Perfect computer player plays
# as Good, and its moves are logged with ``played_as`` (``services.bot_move``): the history
# and the review say so, or a reader learns that "Perfect" lost points it never played for.
# A game logged before that shows as it did.


def _played_as_good(games) -> dict[tuple[int, int], str]:
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


def _turns_as_good(steps) -> dict[int, tuple[int, int]]:
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


def _how(turns: int, as_good: int) -> str:
    return "all" if as_good >= turns else "partly"


def _perfect_bot(seat: Seat) -> bool:
    """A seat named as the site's Perfect computer player (not a player's handed over)."""
    named = seat.kind == Seat.Kind.BOT and seat.bot_number and not seat.handed_from
    return bool(named) and seat.bot_level == "perfect"


def _names(game: Game, as_good: dict[int, str]) -> dict[int, str]:
    """The seats' names by player index, a Perfect computer player's saying that it
    played as Good (``as_good``: seat position -> "all" or "partly")."""
    names = seat_names(game)
    for seat in game.seats.all():
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


def _played_as_good_notes(game: Game, turns_as_good: dict[int, tuple[int, int]]) -> list[str]:
    """Why each Perfect computer player of the review played as Good, and how much."""
    notes = []
    for seat in game.seats.all():
        if seat.position not in turns_as_good or not _perfect_bot(seat):
            continue
        turns, as_good = turns_as_good[seat.position]
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


def _dice_shown(step) -> list[tuple[int, bool]]:
    """The dice of a review step, each with whether it is held: as rolled, or those
    that were scored (the next turn has none yet)."""
    if step.after.dice:
        return [(face, i in step.after.held) for i, face in enumerate(step.after.dice)]
    return [(face, False) for face in step.before.dice]


def _describe(step, names: dict[int, str]) -> SafeString:
    """What a step did, in words, as markup: the name in them isolated (``bidi``)."""
    data, name = step.event.data, isolated(names.get(step.player, "?"))

    def category(key: str) -> str:
        return escape(gettext(step.before.ruleset.category(key).name))

    if step.event.kind == "roll":
        words = gettext("%(name)s rolls %(dice)s (roll %(roll)s).") % {
            "name": name,
            "dice": " ".join(map(str, data["dice"])),
            "roll": data["roll_number"],
        }
    elif step.event.kind == "hold":
        held = [str(step.before.dice[i]) for i in data["held"]]
        words = gettext("%(name)s holds %(dice)s.") % {
            "name": name,
            "dice": " ".join(held) or escape(gettext("nothing")),
        }
    elif step.event.kind == "declare":
        words = gettext("%(name)s declares %(category)s as target.") % {
            "name": name,
            "category": category(data["category"]),
        }
    elif step.event.kind == "skip":
        words = gettext("%(name)s's turn is skipped.") % {"name": name}
    else:
        words = gettext("%(name)s scores %(points)s in %(category)s.") % {
            "name": name,
            "points": data["points"],
            "category": category(data["category"]),
        }
    # safe: the translations' own text is markup, as in a template; the name is
    # isolated and escaped, the categories' names escaped, the rest numbers
    return mark_safe(words)


_UNAVAILABLE = {
    "building": _(
        "The analysis is being prepared: the solver's tables are still being built. "
        "Reload in a minute."
    ),
}


def _analysis_context(game: Game, analysis, columns: Sequence[str], rounds: int) -> dict:
    if analysis.unavailable == "not built":
        # nothing is building them: "reload in a minute" would never come true
        text = gettext(
            "There is no analysis: this server has not built the solver's tables for these"
            " rules and does not build them by itself. Its administrator can, with:"
            " manage.py solve --variant %(variant)s"
        ) % {"variant": Variant.of(game.ruleset, game.table_options).name}
        return {"analysis_unavailable": text}
    if analysis.unavailable:
        return {"analysis_unavailable": _UNAVAILABLE[analysis.unavailable]}
    players = [
        {
            "name": columns[card.index],
            "final": card.final,
            "expected": card.expected_start,
            "decisions": card.decisions,
            "mistakes": card.mistakes,
            "total_loss": card.total_loss,
            "mean_loss": card.mean_loss,
            "luck": card.luck,
        }
        for card in analysis.cards
    ]
    return {"skill": players, "chart": chart(analysis, columns, rounds)}


def _turns(steps, names: dict[int, str], analysis) -> list[dict]:
    """Steps grouped by turn, for the list beside the stepper."""
    turns: list[dict] = []
    for number, step in enumerate(steps, start=1):
        if not turns or turns[-1]["turn"] != step.before.turn:
            turns.append(
                {"turn": step.before.turn, "player": names.get(step.player, "?"), "steps": []}
            )
        turns[-1]["steps"].append(
            {
                "number": number,
                "text": _describe(step, names),
                "decision": analysis.decisions.get(number),
            }
        )
    return turns
