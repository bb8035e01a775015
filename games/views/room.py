"""The room around a table: lobby, invite link and QR code, joining, rejoining,
starting, removing a seat, and skipping the turn of a player who went away."""

from __future__ import annotations

import io

import segno
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games import names, services
from games.errors import ActionError, GameNotFound
from games.models import Game, Seat, storable
from games.seating import browsers_seat
from games.tableview import RULESET_NAMES, host_name, lobby_context, options_text
from games.views.access import (
    BadForm,
    HtmxHttpRequest,
    allow,
    error_page,
    int_field,
    remember,
    require_GET,
    require_POST,
    table_response,
    viewer_of,
)


def _htmx_redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@require_GET
def lobby(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        game = services.get_game(code)
    except ActionError as error:
        return error_page(request, error)
    if game.status != Game.Status.LOBBY:
        return redirect("table", code)
    context = lobby_context(game, viewer_of(request), request)
    return render(request, "games/lobby.html", context)


@allow("GET", "HEAD", "POST")
def join(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        game = services.get_game(code)
    except ActionError as error:
        return error_page(request, error)
    viewer = viewer_of(request)
    seated = browsers_seat(game.all_seats(), viewer)
    if seated is not None:
        remember(request, [seated.token])
        return redirect("lobby" if game.status == Game.Status.LOBBY else "table", code)
    context = {
        "game": game,
        "host": host_name(game),
        "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
        "options": options_text(game),
        "open": game.status == Game.Status.LOBBY and any(s.is_open for s in game.all_seats()),
        "name": request.POST.get("name", ""),
        "name_limits": names.FIELD_LIMITS,
    }
    if request.method == "GET":
        return render(request, "games/join.html", context)
    try:
        seat = services.join(code, viewer, request.POST.get("name", ""))
    except ActionError as error:
        context["message"] = error.message
        return render(request, "games/join.html", context, status=error.status)
    remember(request, [seat.token])
    return redirect("lobby", code)


@allow("GET", "HEAD", "POST")
def rejoin(request: HtmxHttpRequest, code: str, token: str) -> HttpResponse:
    """A player's personal link: puts their seat into this browser's session. A seat the
    host handed to the computer while its player was away still knows its player's
    token (``Seat.handed_from``): the link brings them to the table, which offers the
    seat back. A browser that does not hold the seat yet is asked first, and takes it
    by POST: a friend sent the host's personal link in place of the invite took the
    host's seat without a word (issue 46)."""
    holding = Q(token=token) | Q(handed_from=token)
    seats = Seat.objects.filter(holding, game__in=Game.objects.with_code(code))
    seat = seats.select_related("game").first() if storable(token) else None
    if seat is None:
        if not Game.objects.with_code(code).exists():
            return error_page(request, GameNotFound())
        refusal = ActionError(
            _("This personal link is for no seat at this table: ask the host for the invite link."),
            status=404,
        )
        return error_page(request, refusal)
    game = seat.game
    viewer = viewer_of(request)
    held = token in viewer.tokens or bool(seat.browser_id and seat.browser_id == viewer.browser_id)
    if request.method == "POST" or held:
        remember(request, [token])
        return redirect("lobby" if game.status == Game.Status.LOBBY else "table", code)
    context = {
        "game": game,
        "name": seat.shown_name,
        "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
    }
    return render(request, "games/take_seat.html", context)


@require_POST
def start(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        services.start(code, viewer_of(request), int_field(request, "version"))
    except ActionError as error:
        return _lobby_with(request, code, error)
    return _htmx_redirect(request, reverse("table", args=[code]))


@require_POST
def leave(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        services.leave(code, viewer_of(request))
    except ActionError as error:
        return _lobby_with(request, code, error)
    return _htmx_redirect(request, reverse("join", args=[code]))


@require_POST
def remove_seat(request: HtmxHttpRequest, code: str, position: int) -> HttpResponse:
    try:
        services.remove_seat(code, viewer_of(request), int_field(request, "version"), position)
    except ActionError as error:
        return _lobby_with(request, code, error)
    return _htmx_redirect(request, reverse("lobby", args=[code]))


@require_POST
def open_room(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The host opens the room to anyone (``open=1``) or closes it again (``open=0``)."""
    try:
        opened = request.POST.get("open")
        if opened not in ("0", "1"):
            raise BadForm(_("That request was malformed: reload the table and try again."))
        version = int_field(request, "version")
        services.open_room(code, viewer_of(request), version, opened == "1")
    except ActionError as error:
        return _lobby_with(request, code, error)
    return _htmx_redirect(request, reverse("lobby", args=[code]))


@require_POST
def skip_turn(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        services.skip_turn(code, viewer_of(request), int_field(request, "version"))
    except ActionError as error:
        return _table_with(request, code, error)
    return _htmx_redirect(request, reverse("table", args=[code]))


@require_POST
def hand_to_bot(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        services.hand_to_bot(
            code,
            viewer_of(request),
            int_field(request, "version"),
            request.POST.get("level", ""),
        )
    except ActionError as error:
        return _table_with(request, code, error)
    return _htmx_redirect(request, reverse("table", args=[code]))


@require_POST
def take_back(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        seat = int_field(request, "seat") if request.POST.get("seat") else None
        services.take_back(code, viewer_of(request), seat)
    except ActionError as error:
        return _table_with(request, code, error)
    return _htmx_redirect(request, reverse("table", args=[code]))


@require_GET
def invite_qr(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        services.get_game(code)
    except ActionError as error:
        return error_page(request, error)
    url = request.build_absolute_uri(reverse("join", args=[code]))
    svg = io.BytesIO()
    segno.make(url, error="m").save(
        svg, kind="svg", scale=4, xmldecl=False, title=str(_("Invite link"))
    )
    return HttpResponse(svg.getvalue(), content_type="image/svg+xml")


def _table_with(request: HtmxHttpRequest, code: str, error: ActionError) -> HttpResponse:
    """The table with the refusal on it (or the error page if there is no table)."""
    try:
        game = services.get_game(code)
    except ActionError:
        return error_page(request, error)
    return table_response(
        request, game, viewer_of(request), status=error.status, message=error.message
    )


def _lobby_with(request: HtmxHttpRequest, code: str, error: ActionError) -> HttpResponse:
    """The lobby with the refusal on it; the table, if the game has started meanwhile
    (a second click on Start, another tab): there is no lobby to show any more."""
    try:
        game = services.get_game(code)
    except ActionError:
        return error_page(request, error)
    viewer = viewer_of(request)
    if game.status != Game.Status.LOBBY:
        if request.htmx:  # the lobby's own part asked: the whole page goes to the table
            return _htmx_redirect(request, reverse("table", args=[code]))
        return table_response(request, game, viewer, status=error.status, message=error.message)
    context = lobby_context(game, viewer, request)
    context["message"] = error.message
    template = "games/lobby.html#lobby" if request.htmx else "games/lobby.html"
    return render(request, template, context, status=error.status)
