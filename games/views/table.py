"""The table page and its moves. Each move is one service call; htmx gets the table
partial back, a plain form post is redirected to the table (POST/redirect/GET)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games import bots, broadcast, coach, presence, rules, seating, services
from games.errors import ActionError, NotYourSeat
from games.models import Game
from games.reactions import REACTIONS
from games.viewer import Viewer
from games.views.access import (
    BadForm,
    HtmxHttpRequest,
    error_page,
    int_field,
    require_GET,
    require_POST,
    table_response,
    viewer_at,
    viewer_of,
)


@require_GET
def table(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        game = services.get_game(code)
    except ActionError as error:
        return error_page(request, error)
    if game.status == Game.Status.LOBBY:
        return redirect("lobby", code)
    if bots.nudge(game):
        game = services.get_game(code)
    viewer = viewer_at(request, game)
    seen = presence.seen(game, viewer)
    if seen.back:  # the others' tables offered to skip this browser's players, or act for it
        broadcast.presence_changed([code])
    if seen.counted:  # and will again, unless it asks for the table again by then
        broadcast.presence_changed([code], after=seating.AWAY_BEFORE_SKIP.total_seconds())
    return table_response(request, game, viewer)


@require_POST
def react(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """A seated player's quick reaction, told to every page at the table; nothing is
    kept. htmx gets an empty answer (the reaction comes back over the socket, as to
    everyone), a plain form post the table."""
    try:
        game = services.get_game(code)
        viewer = viewer_at(request, game)
        seats = [s for s in game.all_seats() if s.player_token in viewer.tokens]
        if not seats:
            raise NotYourSeat(_("Only the players at this table can react."))
        key = request.POST.get("reaction", "")
        if key not in REACTIONS:
            raise ActionError(_("There is no such reaction."), code="bad_reaction")
    except ActionError as error:
        return error_page(request, error)
    broadcast.reaction(code, seats[0].shown_name, key)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect("table", code)


@require_GET
def hint(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The coach's advice for the player to move, shown only to them."""
    try:
        game = services.get_game(code)
    except ActionError as error:
        return error_page(request, error)
    viewer = viewer_at(request, game)
    refusal = None
    if not game.coach:
        refusal = _("This table plays without the coach.")
    elif game.status != Game.Status.PLAYING:
        refusal = _("The coach advises during the game.")
    elif game.started_state().to_move not in seating.players_of(game, viewer):
        refusal = _("The coach only advises the player whose turn it is.")
    if refusal:
        return table_response(request, game, viewer, status=409, message=refusal)
    return table_response(request, game, viewer, hint=coach.hint(game.started_state()))


def _move(request: HtmxHttpRequest, code: str, act: Callable[[Viewer, int], Game]) -> HttpResponse:
    """Run one move for the viewer; answer with the table, or the refusal on the table.

    The move reads the game once, locked, in its transaction: nothing is read
    before it. A browser whose session does not know all its seats yet (those of a
    next game, made for it) has them claimed when the move is refused as not theirs,
    and the move is tried once more."""
    viewer = viewer_of(request)
    # htmx answers with the table the move made: the page's socket need not get it too
    page = broadcast.page_id(request.headers.get("X-Yatzy-Page")) if request.htmx else ""
    try:
        version = int_field(request, "version")
        with broadcast.answering(page):
            try:
                moved = act(viewer, version)
            except NotYourSeat:
                claimed = viewer_at(request, services.get_game(code))
                if claimed == viewer:
                    raise
                viewer = claimed
                moved = act(viewer, version)
    except ActionError as error:
        try:
            game = services.get_game(code)
        except ActionError as unknown:
            return error_page(request, unknown)
        return table_response(request, game, viewer, status=error.status, message=error.message)
    if not request.htmx:
        return redirect("table", code)
    # The game as the move left it: the row is ours until the commit, so this is
    # exactly the version the move produced, without reading it again.
    return table_response(request, moved, viewer)


@require_POST
def roll(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _move(request, code, lambda viewer, version: services.roll(code, viewer, version))


@require_POST
def hold(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def act(viewer: Viewer, version: int) -> Game:
        return services.toggle_die(code, viewer, version, int_field(request, "die"))

    return _move(request, code, act)


@require_POST
def declare(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def act(viewer: Viewer, version: int) -> Game:
        return services.declare(code, viewer, version, _category(request))

    return _move(request, code, act)


@require_POST
def score(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Score a category; a zero waits for the player to confirm it."""
    if request.POST.get("confirm") != "1":
        try:
            game = services.get_game(code)
        except ActionError as error:
            return error_page(request, error)
        category = request.POST.get("category", "")
        state = game.engine_state()
        # a zero on the table as it is: the player confirms it first, unless it is all
        # they can do (the rolls used up, this the one category open to the turn:
        # forced order, a declared target missed)
        options = rules.scoring_options(state) if state is not None else {}
        if (
            state is not None
            and options.get(category) == 0
            and not (len(options) == 1 and state.roll_number >= rules.MAX_ROLLS)
            and request.POST.get("version") == str(game.version)
        ):
            viewer = viewer_at(request, game)
            if state.current_player in seating.players_of(game, viewer):
                return table_response(request, game, viewer, confirm=category)

    def act(viewer: Viewer, version: int) -> Game:
        return services.score(code, viewer, version, _category(request))

    return _move(request, code, act)


@require_POST
def play_again(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        game = services.get_game(code)
        following = services.play_again(code, viewer_at(request, game))
    except ActionError as error:
        return error_page(request, error)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("table", args=[following.code])
        return response
    return redirect("table", following.code)


def _category(request: HtmxHttpRequest) -> str:
    category = request.POST.get("category", "")
    if not category:
        raise BadForm(_("Choose a category first."))
    if len(category) > 40:  # no category's key is half as long
        raise BadForm(
            _("There is no category %(key)s in this game.") % {"key": category[:20] + "…"}
        )
    return category
