"""The room and its seats: a new game, friends joining and leaving, the host removing
a seat and starting, the next game at a finished table, and which games and seats a
browser has. One transaction each, the game's row locked."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import rules as engine
from games.bidi import isolated_text
from games.errors import ActionError, NotYourSeat, from_rules
from games.models import Game, GameEvent, Seat
from games.names import name_too_long, same_name, seat_name
from games.seating import browsers_seat, host_seats, player_tokens
from games.services import core
from games.viewer import Viewer

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MAX_SEATS = 16


@dataclass(frozen=True)
class SeatSpec:
    kind: str  # Seat.Kind
    name: str = ""
    team: int | None = None
    bot_level: str = ""
    bot_number: int | None = None  # a computer player the site named (``Seat.shown_name``)


def create_game(
    viewer: Viewer,
    *,
    ruleset: str,
    options: engine.TableOptions,
    seats: Sequence[SeatSpec],
    public: bool = True,
    coach: bool = False,
    seed: str = "",
    seed_secret_until: datetime | None = None,
    computer_pace: str = "relaxed",
    turn_seconds: int = 0,
    watchable: bool = False,
    open_to_anyone: bool = False,
) -> Game:
    """A new room with ``seats`` in order; the creating browser holds the local ones.
    Its dice follow from ``seed`` (a daily challenge's, kept secret until
    ``seed_secret_until`` even once the game is over), else from a fresh seed.

    A table with no invitations starts at once; otherwise it waits in the lobby, where
    anyone may take its invitations if it is ``open_to_anyone`` (``games.open_tables``).
    """
    try:
        rules = engine.get_ruleset(ruleset)
        options.validate(rules)
    except engine.RulesError as error:
        raise from_rules(error) from None
    if not 1 <= len(seats) <= MAX_SEATS:
        raise ActionError(_("A table has 1 to 16 seats."), code="bad_seats")
    if open_to_anyone:
        _check_invitation(spec.kind for spec in seats)
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=ruleset,
            options=options.to_dict(),
            public=public,
            coach=coach,
            host_browser=viewer.browser_id,
            seed_secret_until=seed_secret_until,
            computer_pace=computer_pace,
            turn_seconds=turn_seconds,
            watchable=watchable,
            open_to_anyone=open_to_anyone,
            **core.committed_dice(seed),
        )
        now = timezone.now()
        for position, spec in enumerate(seats):
            Seat.objects.create(
                game=game,
                position=position,
                team=spec.team,
                name=seat_name(spec.name),
                kind=spec.kind,
                bot_level=spec.bot_level,
                bot_number=spec.bot_number,
                browser_id=viewer.browser_id if spec.kind == Seat.Kind.LOCAL else "",
                claimed_at=None if spec.kind == Seat.Kind.REMOTE else now,
            )
        core.log(game, [(GameEvent.Kind.CREATE, None, {})])
        if not any(spec.kind == Seat.Kind.REMOTE for spec in seats):
            start_table(game)
    return game


def local_tokens(game: Game, viewer: Viewer) -> list[str]:
    """The tokens of the seats this browser holds, to keep in its session."""
    return [seat.token for seat in game.all_seats() if seat.browser_id == viewer.browser_id]


def player_name(name: str) -> str:
    """``name`` as a seat shows it (``seat_name``); a clear refusal if nothing of it
    shows or it is too long (refused, not cut: ``name_too_long``)."""
    refusal = name_too_long(name)
    name = seat_name(name)
    if not name:
        raise ActionError(_("Please tell the table your name."), code="name_required")
    if refusal:
        raise ActionError(refusal, code="name_too_long")
    return name


def join(code: str, viewer: Viewer, name: str, stranger: bool = False) -> Seat:
    """Take the first open invitation at the table for ``viewer``: by its invite link,
    or as a ``stranger`` from the Open tables page, at a room open to anyone only."""
    name = player_name(name)
    with transaction.atomic():
        game = core.locked(code)
        if stranger and not game.open_to_anyone:
            raise ActionError(
                _("This table is no longer open to anyone: its host invites by link."),
                code="not_open",
                status=409,
            )
        if game.status != Game.Status.LOBBY:
            raise ActionError(
                _("This game has already started: you can watch it instead."),
                code="started",
                status=409,
            )
        seats = game.all_seats()
        mine = browsers_seat(seats, viewer)
        if mine is not None:  # one seat per browser
            return mine
        seat = next((s for s in seats if s.kind == Seat.Kind.REMOTE and s.claimed_at is None), None)
        if seat is None:
            raise ActionError(
                _("Every seat at this table is taken: you can watch instead."),
                code="table_full",
                status=409,
            )
        if any(same_name(s.name, name) for s in seats if s.name):
            raise ActionError(
                _("Someone at this table is already called %(name)s: please choose another name.")
                % {"name": isolated_text(name)},  # plain text: see games.bidi
                code="name_taken",
            )
        seat.name = name
        seat.browser_id = viewer.browser_id
        seat.claimed_at = timezone.now()
        seat.save(update_fields=["name", "browser_id", "claimed_at"])
        core.bump(game, GameEvent.Kind.JOIN, seat, {"name": name})
    return seat


def remove_seat(code: str, viewer: Viewer, version: int, position: int) -> Game:
    """The host takes a seat away before the game starts."""
    with transaction.atomic():
        game = _hosts_lobby(
            code, viewer, version, _("Seats can only be removed before the game starts.")
        )
        seat = game.seats.filter(position=position).first()
        if seat is None:
            raise ActionError(_("There is no such seat at this table."), code="no_seat")
        if game.seats.count() == 1:
            raise ActionError(_("A table needs at least one seat."), code="last_seat")
        if host_seats(game) == [seat]:
            # the host would run a table they cannot sit at, nor join again: its
            # invite link has no seat for them
            raise ActionError(
                _("You host this table: your last seat at it stays."), code="host_seat"
            )
        seat.delete()
        removed: dict[str, int | str] = {"position": position}
        if seat.browser_id:  # a friend's: their lobby page tells them (lobby_context)
            removed["browser"] = seat.browser_id
        core.bump(game, GameEvent.Kind.REMOVE, None, removed)
    return game


def leave(code: str, viewer: Viewer) -> Game:
    """A friend gives their seat up before the game starts: in its place the table has
    an open invitation again (a seat of its own, under a new token: the friend's
    browser no longer holds it, and its socket's goodbye counts nothing off it)."""
    with transaction.atomic():
        game = core.locked(code)
        if game.status != Game.Status.LOBBY:
            raise ActionError(
                _("The game has started: your seat is at the table now."),
                code="started",
                status=409,
            )
        seat = next(
            (
                s
                for s in game.all_seats()
                if s.token in viewer.tokens and s.kind == Seat.Kind.REMOTE
            ),
            None,
        )
        if seat is None:
            raise NotYourSeat(_("This browser has no seat of an invited friend at this table."))
        seat.delete()
        Seat.objects.create(
            game=game, position=seat.position, team=seat.team, kind=Seat.Kind.REMOTE
        )
        core.bump(game, GameEvent.Kind.LEAVE, None, {"position": seat.position, "name": seat.name})
    return game


def start(code: str, viewer: Viewer, version: int) -> Game:
    """The host starts the game with the seats that are filled; open invitations go."""
    with transaction.atomic():
        game = _hosts_lobby(code, viewer, version, _("The game has already started."))
        start_table(game)
    return game


def open_room(code: str, viewer: Viewer, version: int, opened: bool) -> Game:
    """The host opens the room to anyone (``opened``: strangers may take its
    invitations, from the Open tables page), or closes it again (only the invite link
    seats anyone then). Only before the game starts, and only with an invitation."""
    with transaction.atomic():
        game = _hosts_lobby(code, viewer, version, _("The game has started: its seats are taken."))
        if opened:
            _check_invitation(seat.kind for seat in game.all_seats())
        if game.open_to_anyone != opened:
            game.open_to_anyone = opened
            core.bump(game, GameEvent.Kind.OPEN, None, {"open": opened}, ["open_to_anyone"])
    return game


def play_again(code: str, viewer: Viewer) -> Game:
    """The next game at a finished table: same seats, same browsers, same options;
    the first turn goes one seat along (to the next player's team, at a team table),
    and the table says who asked for the game (``Game.again_by``: of a browser
    holding several seats, its first).

    Asking twice gives the same next game. Every browser at the old table is told
    (the old game's version moves on) so it can follow.
    """
    with transaction.atomic():
        game = core.locked(code)
        if game.status != Game.Status.FINISHED:
            raise ActionError(_("The game is not over yet."), code="not_finished", status=409)
        if game.seed_secret_until is not None:
            raise ActionError(
                _("A daily challenge has no next game: the home page starts today's."),
                code="daily",
                status=409,
            )
        if not player_tokens(game) & viewer.tokens:
            raise NotYourSeat(_("Only the players of this game can start the next one."))
        if game.next_game is not None:
            return game.next_game
        seats = game.all_seats()
        presser = min(seat.position for seat in seats if seat.player_token in viewer.tokens)
        following = Game.objects.create(
            ruleset=game.ruleset,
            options=game.options,
            public=game.public,
            coach=game.coach,
            host_browser=game.host_browser,
            again_by=presser,
            computer_pace=game.computer_pace,
            turn_seconds=game.turn_seconds,
            watchable=game.watchable,
            quick_play=game.quick_play,  # strangers still
            open_to_anyone=game.open_to_anyone,  # on the Watch page as the last one was
            **core.committed_dice(),
        )
        now = timezone.now()
        for seat in seats:
            # A seat the computer was still playing for a player who went away is the
            # player's again, of the kind it was (one at the host's screen is there
            # again; one handed over before the kind was kept, a friend's): theirs to
            # claim (``claim_seats_of_browser``), or to skip or hand over once more (at
            # the same level) if they stay away.
            kind = (seat.handed_kind or Seat.Kind.REMOTE) if seat.handed_from else seat.kind
            hosts = game.host_browser if kind == Seat.Kind.LOCAL else ""
            Seat.objects.create(
                game=following,
                position=seat.position,
                team=seat.team,
                name=seat.name,
                kind=kind,
                bot_level=seat.bot_level,
                bot_number=seat.bot_number,
                browser_id=seat.browser_id or hosts,
                claimed_at=now,
            )
        core.log(following, [(GameEvent.Kind.CREATE, None, {"previous": game.code})])
        start_table(following, after=_first_player(game, seats))
        game.next_game = following
        core.bump(game, GameEvent.Kind.AGAIN, None, {"next": following.code}, ["next_game"])
    return following


def games_of(viewer: Viewer) -> Q:
    """The games this browser has a seat at: by the seats its session holds, those the
    computer plays for it while it is away, and those it went on with by link."""
    mine = Q(seats__token__in=viewer.tokens) | Q(seats__handed_from__in=viewer.tokens)
    if viewer.browser_id:  # (computer players' seats have no browser)
        mine |= Q(seats__browser_id=viewer.browser_id)
    return mine


def games_in_progress(viewer: Viewer, most: int = 10) -> list[Game]:
    """The games this browser has a seat at that are not over, the latest first: a
    player who closed the page finds the way back to the table."""
    going = Game.objects.filter(
        games_of(viewer), status__in=[Game.Status.LOBBY, Game.Status.PLAYING]
    )
    return list(going.distinct().order_by("-created_at", "-id").prefetch_related("seats")[:most])


# A game's seat tokens stay in its browsers' sessions this long after its end: its
# players may still ask for the next game, also on a device that holds only the link.
TOKENS_KEPT_AFTER_THE_END = timedelta(days=1)


def tokens_in_play(tokens: list[str]) -> set[str]:
    """Those of ``tokens`` whose seat is at a game not over, or over lately
    (``TOKENS_KEPT_AFTER_THE_END``): of a player's own seat, or of one the computer
    plays for them. The rest (games long over, or deleted by ``manage.py tidy``) a
    session need not keep."""
    ended_lately = timezone.now() - TOKENS_KEPT_AFTER_THE_END
    going = Q(game__status__in=[Game.Status.LOBBY, Game.Status.PLAYING]) | Q(
        game__finished_at__gte=ended_lately
    )
    seats = Seat.objects.filter(Q(token__in=tokens) | Q(handed_from__in=tokens), going)
    found = {token for pair in seats.values_list("token", "handed_from") for token in pair}
    return found & set(tokens)


def claim_seats_of_browser(game: Game, viewer: Viewer) -> list[str]:
    """Tokens of the seats this browser holds at ``game`` that its session lacks: a
    next game's seats, made for the browsers that took them first, and for a browser
    that held them at the game before (a player who went on on another device by the
    seat's personal link)."""
    seats = game.all_seats()
    mine = [
        seat.token
        for seat in seats
        if viewer.browser_id
        and seat.browser_id == viewer.browser_id
        and seat.token not in viewer.tokens
    ]
    if mine or not viewer.tokens or any(seat.token in viewer.tokens for seat in seats):
        return mine  # (a player known here asks nothing more of the database)
    held = Q(token__in=viewer.tokens) | Q(handed_from__in=viewer.tokens)
    before = Seat.objects.filter(held, game__next_game=game)
    positions = set(before.values_list("position", flat=True))
    return [seat.token for seat in seats if seat.position in positions]


def _check_invitation(kinds: Iterable[str]) -> None:
    """A room open to anyone needs a seat to invite a stranger to."""
    if Seat.Kind.REMOTE not in kinds:
        raise ActionError(_("This table has no seat to invite anyone to."), code="no_invitation")


def _hosts_lobby(code: str, viewer: Viewer, version: int, started: StrOrPromise) -> Game:
    """The game ``code`` locked, for its host to change its lobby at ``version``; the
    refusal ``started`` once it has started."""
    game = core.locked(code)
    core.check_version(game, version)
    _check_host(game, viewer)
    if game.status != Game.Status.LOBBY:
        raise ActionError(started, code="started", status=409)
    return game


def _check_host(game: Game, viewer: Viewer) -> None:
    if game.host_browser != viewer.browser_id:
        raise NotYourSeat(_("Only the host of this table can do that."))


def _first_player(game: Game, seats: list[Seat]) -> int:
    """The position of the seat that played first in ``game``."""
    first = game.started_state().scorecards[0].players[0]
    return next(seat.position for seat in seats if seat.player_index == first)


def start_table(game: Game, after: int | None = None) -> None:
    """Start ``game`` with its filled seats, in the seats' order, from the first seat
    after position ``after`` (at a table that plays again: the last game's first
    player's), round the table: the players' order (``Seat.player_index``), which
    the scorecards and the turns follow, and which the review replays."""
    all_seats = game.all_seats()
    seats = [seat for seat in all_seats if not seat.is_open]
    game.seats.filter(kind=Seat.Kind.REMOTE, claimed_at__isnull=True).delete()
    if not seats:
        raise ActionError(_("Nobody has taken a seat yet."), code="no_players")
    if any(seat.team for seat in all_seats):
        _fill_every_team(seats, max(2, *(seat.team or 0 for seat in all_seats)))
    if after is not None:
        along = next((n for n, seat in enumerate(seats) if seat.position > after), 0)
        seats = seats[along:] + seats[:along]
    teams: dict[object, list[int]] = {}
    for index, seat in enumerate(seats):
        seat.player_index = index
        seat.save(update_fields=["player_index"])
        key = ("team", seat.team) if seat.team is not None else ("solo", index)
        teams.setdefault(key, []).append(index)
    try:
        state = engine.new_game(
            game.ruleset, list(teams.values()), game.table_options, core.dice_of(game)
        )
    except engine.RulesError as error:
        raise from_rules(error) from None
    game.status = Game.Status.PLAYING
    game.started_at = timezone.now()
    core.save_state(game, None, state, GameEvent.Kind.START, None, ["status", "started_at"])


def _fill_every_team(seats: list[Seat], teams: int) -> None:
    """Give each of ``teams`` teams a player. The seats were dealt to the teams in turn
    when the room was made; an invitation nobody took, or a seat the host removed, can
    leave a team without anyone, and a team game of one team is no game. Then the
    players seated are dealt again in turn, as the room dealt its seats. (``teams`` is
    the highest team of the room's seats, and at least two: the room does not keep
    the number of teams it was made with, and a host who removed every seat of the
    last teams has a game of fewer teams.)"""
    if len({seat.team for seat in seats}) == teams:
        return
    if len(seats) < teams:
        raise ActionError(
            gettext("%(teams)s teams need at least %(teams)s players.") % {"teams": teams},
            code="empty_team",
        )
    for index, seat in enumerate(seats):
        seat.team = index % teams + 1
        seat.save(update_fields=["team"])
