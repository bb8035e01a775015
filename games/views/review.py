"""The turn-by-turn review of a finished game, and its dice to check."""

from __future__ import annotations

from collections.abc import Sequence

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
from games.analysis import Decision, analyse, chart
from games.bidi import isolated
from games.dice_export import dice_export
from games.errors import ActionError
from games.models import DailyAttempt, Game
from games.rendering import die_face
from games.replay import replay
from games.scorecard import (
    column_heads,
    column_titles,
    scorecard_key,
    scorecard_rows,
    short_heads,
)
from games.seating import browsers_seat
from games.tableview import RULESET_NAMES, seat_names
from games.views.access import HtmxHttpRequest, error_page, require_GET, viewer_looking
from games.views.as_good import how_as_good, names_as_played, played_as_good_notes, turns_as_good


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
        and browsers_seat(game.all_seats(), viewer_looking(request)) is None
    ):
        return error_page(request, DAILY_NOT_YET)
    steps = replay(game)
    as_good = turns_as_good(steps)
    # the summaries name a Perfect player that played as Good so; its steps keep its
    # name short, their verdicts say "(played as Good)" where it did
    names = seat_names(game)
    summary_names = names_as_played(
        game, {pos: how_as_good(*counts) for pos, counts in as_good.items()}
    )
    try:
        step = min(max(int(request.GET.get("step", len(steps))), 0), len(steps))
    except ValueError:
        step = len(steps)
    state = steps[step - 1].after if step else (steps[0].before if steps else game.started_state())
    analysis = analyse(game, steps)
    turns = _turns(steps, names, analysis)
    heads = column_heads(state, summary_names)
    titles = column_titles(state, summary_names)
    final = game.started_state()
    final_heads = column_heads(final, summary_names)
    context = {
        "game": game,
        "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
        "heads": tuple(zip(heads, titles, short_heads(titles), strict=True)),
        "rows": scorecard_rows(state, {}, live=False, declaring=False),
        "key": scorecard_key(state),
        "current_column": None,
        "step": step,
        "steps": len(steps),
        "shown": steps[step - 1] if step else None,
        "dice": _dice_shown(steps[step - 1]) if step else [],
        "shown_text": _describe(steps[step - 1], names) if step else "",
        "turns": turns,
        "decision": analysis.decisions.get(step),
        "mistakes": bool(analysis.mistakes),
        "mistake_before": analysis.mistake_before(step),
        "mistake_after": analysis.mistake_after(step),
        "costliest": [_costly(decision, steps, names) for decision in analysis.costliest()],
        "played_as_good": played_as_good_notes(game, as_good),
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


def _dice_shown(step) -> list[tuple[int, bool, SafeString]]:
    """The dice of a review step, each with whether it is held and its face as the
    table draws it: as rolled, or those that were scored (the next turn has none yet)."""
    if step.after.dice:
        shown = [(face, i in step.after.held) for i, face in enumerate(step.after.dice)]
    else:
        shown = [(face, False) for face in step.before.dice]
    return [(face, held, die_face(face)) for face, held in shown]


def _costly(decision: Decision, steps, names: dict[int, str]) -> dict:
    """One of the game's costliest decisions as the review lists it: who made it, in
    which of their turns, on which dice, what they chose and what was best."""
    before = decision.before
    return {
        "step": decision.step,
        "turn": before.round + 1,
        "name": names.get(steps[decision.step - 1].player, "?"),
        "dice": " ".join(map(str, before.dice)),
        "decision": decision,
    }


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
            "There is no analysis: this site has not worked out perfect play for these rules."
        )
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
