"""The actions of the site, one transaction each.

Every action locks its game row (``select_for_update``; on SQLite the immediate
transaction already serialises writers), checks the version the client saw, runs
the engine, saves the new state with a bumped version and schedules the broadcast
for after the commit, so nobody hears of a change that rolled back.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import broadcast
from games import rules as engine
from games.bidi import isolated_text
from games.errors import ActionError, GameNotFound, NotYourSeat, StaleGame, from_rules
from games.models import Game, GameEvent, ScoreEntry, Seat, new_seat_token
from games.names import name_too_long, same_name, seat_name
from games.rules.state import YAHTZEE_BONUS_POINTS

# The dice of every game come from here; tests replace it with a seeded generator.
rng: engine.DiceRandom = secrets.SystemRandom()
# The computer players' own choices (a Beginner's slips) come from here.
bot_rng: engine.DiceRandom = secrets.SystemRandom()
BOT_LEVELS = ("beginner", "good", "perfect")

MAX_SEATS = 16


@dataclass(frozen=True)
class Viewer:
    """Who is asking: their browser's id and the seat tokens their session holds."""

    browser_id: str
    tokens: frozenset[str] = field(default_factory=frozenset)


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
) -> Game:
    """A new room with ``seats`` in order; the creating browser holds the local ones.

    A table with no invitations starts at once; otherwise it waits in the lobby.
    """
    try:
        rules = engine.get_ruleset(ruleset)
        options.validate(rules)
    except engine.RulesError as error:
        raise from_rules(error) from None
    if not 1 <= len(seats) <= MAX_SEATS:
        raise ActionError(_("A table has 1 to 16 seats."), code="bad_seats")
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=ruleset,
            options=options.to_dict(),
            public=public,
            coach=coach,
            host_browser=viewer.browser_id,
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
        _log(game, [(GameEvent.Kind.CREATE, None, {})])
        if not any(spec.kind == Seat.Kind.REMOTE for spec in seats):
            _start(game)
    return game


def local_tokens(game: Game, viewer: Viewer) -> list[str]:
    """The tokens of the seats this browser holds, to keep in its session."""
    return [seat.token for seat in game.seats.all() if seat.browser_id == viewer.browser_id]


def join(code: str, viewer: Viewer, name: str) -> Seat:
    """Take the first open invitation at the table for ``viewer``."""
    refusal = name_too_long(name)
    name = seat_name(name)
    if not name:
        raise ActionError(_("Please tell the table your name."), code="name_required")
    if refusal:
        raise ActionError(refusal, code="name_too_long")
    with transaction.atomic():
        game = _locked(code)
        if game.status != Game.Status.LOBBY:
            raise ActionError(
                _("This game has already started: you can watch it instead."),
                code="started",
                status=409,
            )
        seats = list(game.seats.all())
        mine = next((s for s in seats if s.token in viewer.tokens), None)
        if mine is not None:
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
        _bump(game, GameEvent.Kind.JOIN, seat, {"name": name})
    return seat


def remove_seat(code: str, viewer: Viewer, version: int, position: int) -> Game:
    """The host takes a seat away before the game starts."""
    with transaction.atomic():
        game = _locked(code)
        _check_version(game, version)
        _check_host(game, viewer)
        if game.status != Game.Status.LOBBY:
            raise ActionError(
                _("Seats can only be removed before the game starts."), code="started", status=409
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
        removed = {"position": position}
        if seat.browser_id:  # a friend's: their lobby page tells them (lobby_context)
            removed["browser"] = seat.browser_id
        _bump(game, GameEvent.Kind.REMOVE, None, removed)
    return game


def leave(code: str, viewer: Viewer) -> Game:
    """A friend gives their seat up before the game starts: in its place the table has
    an open invitation again (a seat of its own, under a new token: the friend's
    browser no longer holds it, and its socket's goodbye counts nothing off it)."""
    with transaction.atomic():
        game = _locked(code)
        if game.status != Game.Status.LOBBY:
            raise ActionError(
                _("The game has started: your seat is at the table now."),
                code="started",
                status=409,
            )
        seat = next(
            (
                s
                for s in game.seats.all()
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
        _bump(game, GameEvent.Kind.LEAVE, None, {"position": seat.position, "name": seat.name})
    return game


def start(code: str, viewer: Viewer, version: int) -> Game:
    """The host starts the game with the seats that are filled; open invitations go."""
    with transaction.atomic():
        game = _locked(code)
        _check_version(game, version)
        _check_host(game, viewer)
        if game.status != Game.Status.LOBBY:
            raise ActionError(_("The game has already started."), code="started", status=409)
        _start(game)
    return game


def roll(code: str, viewer: Viewer, version: int, held: Iterable[int] | None = None) -> Game:
    held_positions = None if held is None else tuple(held)

    def act(state: engine.GameState, player: int) -> engine.GameState:
        return engine.roll(state, player, rng, held_positions)

    return _play(code, viewer, version, GameEvent.Kind.ROLL, act)


def hold(code: str, viewer: Viewer, version: int, held: Iterable[int]) -> Game:
    positions = tuple(held)

    def act(state: engine.GameState, player: int) -> engine.GameState:
        return engine.hold(state, player, positions)

    return _play(code, viewer, version, GameEvent.Kind.HOLD, act)


def toggle_die(code: str, viewer: Viewer, version: int, position: int) -> Game:
    """Hold the die at ``position`` if it is free, release it if it is held."""

    def act(state: engine.GameState, player: int) -> engine.GameState:
        return engine.hold(state, player, set(state.held) ^ {position})

    return _play(code, viewer, version, GameEvent.Kind.HOLD, act)


def declare(code: str, viewer: Viewer, version: int, category: str) -> Game:
    def act(state: engine.GameState, player: int) -> engine.GameState:
        return engine.declare(state, player, category)

    return _play(code, viewer, version, GameEvent.Kind.DECLARE, act)


def score(code: str, viewer: Viewer, version: int, category: str) -> Game:
    def act(state: engine.GameState, player: int) -> engine.GameState:
        return engine.score(state, player, category, rng)

    return _play(code, viewer, version, GameEvent.Kind.SCORE, act)


def skip_turn(code: str, viewer: Viewer, version: int) -> Game:
    """The host ends the turn of a player who has gone away: a zero in their
    lowest-value open category (RULES.md leaves the choice to the rules)."""
    with transaction.atomic():
        game, state, seat = _away_seat_to_move(
            code, viewer, version, _("Only a running game has turns to skip.")
        )
        new_state = engine.skip_turn(state, rng)
        _save_state(game, state, new_state, GameEvent.Kind.SKIP, seat)
    return game


def hand_to_bot(code: str, viewer: Viewer, version: int, level: str = "") -> Game:
    """The host gives the seat of a player who has gone away to a computer player,
    which plays on from where the game is (that player's browser loses the seat).
    It plays at ``level``; if none is named, at the level the seat was last handed
    over at (it keeps it when its player takes it back), else Good."""
    if level and level not in BOT_LEVELS:
        raise ActionError(_("There is no such computer player."), code="bad_level")
    with transaction.atomic():
        game, state, seat = _away_seat_to_move(
            code, viewer, version, _("Only a running game has seats to hand over.")
        )
        level = level or seat.bot_level or "good"
        seat.handed_kind, seat.kind = seat.kind, Seat.Kind.BOT
        seat.bot_level = level
        seat.browser_id = ""
        seat.handed_from = seat.token
        seat.token = new_seat_token()
        seat.save(
            update_fields=["kind", "handed_kind", "bot_level", "browser_id", "handed_from", "token"]
        )
        _bump(game, GameEvent.Kind.HANDOVER, seat, {"level": level})
        _wake_bot(game, state)
    return game


def take_back(code: str, viewer: Viewer, position: int | None) -> Game:
    """A player whose seat was handed to a computer player while they were away takes
    it back: the seat at ``position``, one of those handed over from ``viewer``'s (a
    browser may have had several: the host's screen). No version: the computer moves
    on while the page offering it is open. The seat keeps the computer's level, for
    the next time it is handed over."""
    with transaction.atomic():
        game = _locked(code)
        seats = _handed_from(game, viewer)
        if not seats:
            raise NotYourSeat(_("No seat at this table was handed over from this browser."))
        if game.status != Game.Status.PLAYING:
            raise ActionError(_("The game is over."), code="not_playing", status=409)
        seat = next((s for s in seats if s.position == position), None)
        if seat is None:  # a page from before that seat was taken back, or a forged form
            raise ActionError(
                _(
                    "That seat is not one handed over from this browser (any more): "
                    "reload the table and try again."
                ),
                code="not_handed_over",
                status=409,
            )
        # the kind of seat it was: one at the host's screen is one again if taken back
        # there (the host's own is the host's again: ``host_seats``), else a friend's
        back_at_hosts_screen = (
            seat.handed_kind == Seat.Kind.LOCAL and viewer.browser_id == game.host_browser
        )
        seat.kind = Seat.Kind.LOCAL if back_at_hosts_screen else Seat.Kind.REMOTE
        seat.handed_kind = ""
        seat.token, seat.handed_from = seat.handed_from, ""
        seat.browser_id = viewer.browser_id
        fields = ["kind", "handed_kind", "token", "handed_from", "browser_id"]
        if seat.connections == 0:  # taken back by a page without a socket (no JavaScript):
            seat.away_since = timezone.now()  # the player is away from now only
            fields.append("away_since")
        seat.save(update_fields=fields)
        _bump(game, GameEvent.Kind.TAKEBACK, seat, {})
    return game


def handed_over(game: Game, viewer: Viewer) -> list[Seat]:
    """The seats of ``game`` a computer plays that ``viewer`` may take back (while it is
    played: at the end, the next game gives them back, ``play_again``)."""
    return _handed_from(game, viewer) if game.status == Game.Status.PLAYING else []


def _handed_from(game: Game, viewer: Viewer) -> list[Seat]:
    """The seats of ``game`` handed to a computer player from ``viewer``'s seats (only a
    computer's seat has ``handed_from``: taking it back clears it)."""
    return [s for s in game.seats.all() if s.handed_from and s.handed_from in viewer.tokens]


def bot_move(code: str, version: int, rng_for_bot=None) -> bool:
    """One step of the computer player to move, if the game is still at ``version``
    (otherwise another process or a human got there first). A roll with new held
    dice is two steps, hold then roll, so everyone at the table sees the hold."""
    from games.strategy import bots

    with transaction.atomic():
        game = _locked(code)
        if game.version != version or game.status != Game.Status.PLAYING:
            return False
        state = game.engine_state()
        seat = game.seats.get(player_index=state.current_player)
        if seat.kind != Seat.Kind.BOT:
            return False
        player = seat.player_index
        level = seat.bot_level or "good"
        last = game.events.order_by("-id").values_list("kind", "data").first()
        last_kind, last_data = last or ("", {})
        if state.roll_number and 0 < state.roll_number < engine.MAX_ROLLS and last_kind == "hold":
            # the roll its hold chose: the review judges the keep here, at the hold's level
            kind, new_state = GameEvent.Kind.ROLL, engine.roll(state, player, rng)
            played_as = last_data.get("played_as", "")
        else:
            move = bots.choose_move(state, level, rng_for_bot or bot_rng)
            # logged where it is not the seat's (a Perfect player without its tables),
            # for the history and the review to tell the truth about it
            played_as = move.level if move.level != level else ""
            if move.kind == "declare":
                kind, new_state = (
                    GameEvent.Kind.DECLARE,
                    engine.declare(state, player, move.category),
                )
            elif move.kind == "score":
                kind, new_state = (
                    GameEvent.Kind.SCORE,
                    engine.score(state, player, move.category, rng),
                )
            elif state.roll_number and set(move.held) != set(state.held):
                kind, new_state = GameEvent.Kind.HOLD, engine.hold(state, player, move.held)
            else:
                kind, new_state = GameEvent.Kind.ROLL, engine.roll(state, player, rng)
        _save_state(game, state, new_state, kind, seat, played_as=played_as)
    return True


def play_again(code: str, viewer: Viewer) -> Game:
    """The next game at a finished table: same seats, same browsers, same options.

    Asking twice gives the same next game. Every browser at the old table is told
    (the old game's version moves on) so it can follow.
    """
    with transaction.atomic():
        game = _locked(code)
        if game.status != Game.Status.FINISHED:
            raise ActionError(_("The game is not over yet."), code="not_finished", status=409)
        if not player_tokens(game) & viewer.tokens:
            raise NotYourSeat(_("Only the players of this game can start the next one."))
        if game.next_game is not None:
            return game.next_game
        following = Game.objects.create(
            ruleset=game.ruleset,
            options=game.options,
            public=game.public,
            coach=game.coach,
            host_browser=game.host_browser,
        )
        now = timezone.now()
        for seat in game.seats.all():
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
        _log(following, [(GameEvent.Kind.CREATE, None, {"previous": game.code})])
        _start(following)
        game.next_game = following
        _bump(game, GameEvent.Kind.AGAIN, None, {"next": following.code}, ["next_game"])
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


def player_tokens(game: Game) -> frozenset[str]:
    """The tokens of the game's players: of a seat the computer played for a player
    who went away, the player's (``handed_from``). At the end, these may ask for the
    next game: the computer finished this one for them, the next is theirs."""
    return frozenset(seat.player_token for seat in game.seats.all())


def claim_seats_of_browser(game: Game, viewer: Viewer) -> list[str]:
    """Tokens of the seats this browser holds at ``game`` that its session lacks: a
    next game's seats, made for the browsers that took them first, and for a browser
    that held them at the game before (a player who went on on another device by the
    seat's personal link)."""
    seats = list(game.seats.all())
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


def controlled_positions(game: Game, viewer: Viewer) -> set[int]:
    """The seats ``viewer`` may act for."""
    return {seat.position for seat in game.seats.all() if seat.token in viewer.tokens}


def get_game(code: str) -> Game:
    game = Game.objects.filter(code=code).first()
    if game is None:
        raise GameNotFound
    return game


# -- inside the transaction ---------------------------------------------------------------


def _locked(code: str, with_seats: bool = False) -> Game:
    """The game with ``code``, its row locked until the transaction ends (on databases
    that lock rows; SQLite's write transaction locks the whole database); with its
    seats read too if ``with_seats``."""
    games = Game.objects.select_for_update().filter(code=code)
    if with_seats:
        games = games.prefetch_related("seats")
    game = games.first()
    if game is None:
        raise GameNotFound
    return game


def _seat_of(game: Game, player_index: int) -> Seat:
    """The seat playing ``player_index``, from the seats already read if they were."""
    for seat in game.seats.all():
        if seat.player_index == player_index:
            return seat
    raise Seat.DoesNotExist(f"no seat plays player {player_index}")


def _check_version(game: Game, version: int) -> None:
    if version != game.version:
        raise StaleGame


def _away_seat_to_move(
    code: str, viewer: Viewer, version: int, not_playing: str
) -> tuple[Game, engine.GameState, Seat]:
    """For the actions on a player who has gone away: the locked game, its state and
    the seat to move, once the seat is known to be away. They are the host's; once the
    host has gone away too, any player's, or the table could not go on."""
    from games import presence

    game = _locked(code)
    _check_version(game, version)
    seats = list(game.seats.all())
    is_host = game.host_browser == viewer.browser_id
    if not is_host and not any(
        s.token in viewer.tokens and s.player_index is not None for s in seats
    ):
        raise NotYourSeat(_("Only the host of this table can do that."))
    if game.status != Game.Status.PLAYING:
        raise ActionError(not_playing, status=409)
    state = game.engine_state()
    seat = next(s for s in seats if s.player_index == state.current_player)
    may_skip = presence.skippers(game, seats, state.current_player)
    if may_skip.host is None:
        named = {"name": isolated_text(seat.shown_name)}  # plain text: see games.bidi
        if seat.token in viewer.tokens:  # their own turn (at a shared screen, say)
            message = gettext("It is %(name)s's turn at this screen: play it here.")
            raise ActionError(message % named, code="not_away", status=409)
        # a friend may once the host's screen is away too: if it would still be there
        # when the player to move has gone, the friend may not at all
        hosts = presence.hosts_players(game, seats)
        if not is_host and (
            not hosts or any(not presence.is_away(s) for s in hosts if s.pk != seat.pk)
        ):
            message = gettext("Only the host can do that, and only once %(name)s has gone away.")
            raise NotYourSeat(message % named)
        raise ActionError(
            gettext("%(name)s is at the table: wait for their move.") % named,
            code="not_away",
            status=409,
        )
    if not may_skip.include(viewer):
        raise NotYourSeat(_("The host is at the table: only the host can do that."))
    return game, state, seat


def host_seats(game: Game, seats: Iterable[Seat] | None = None) -> list[Seat]:
    """The seats of the players at the host's own screen, of ``seats`` if given (read
    already), else of the game's."""
    return [
        s
        for s in (game.seats.all() if seats is None else seats)
        if s.kind == Seat.Kind.LOCAL and s.browser_id == game.host_browser
    ]


def _check_host(game: Game, viewer: Viewer) -> None:
    if game.host_browser != viewer.browser_id:
        raise NotYourSeat(_("Only the host of this table can do that."))


def _start(game: Game) -> None:
    all_seats = list(game.seats.all())
    seats = [seat for seat in all_seats if not seat.is_open]
    game.seats.filter(kind=Seat.Kind.REMOTE, claimed_at__isnull=True).delete()
    if not seats:
        raise ActionError(_("Nobody has taken a seat yet."), code="no_players")
    if any(seat.team for seat in all_seats):
        _fill_every_team(seats, max(2, *(seat.team or 0 for seat in all_seats)))
    teams: dict[object, list[int]] = {}
    for index, seat in enumerate(seats):
        seat.player_index = index
        seat.save(update_fields=["player_index"])
        key = ("team", seat.team) if seat.team is not None else ("solo", index)
        teams.setdefault(key, []).append(index)
    try:
        state = engine.new_game(game.ruleset, list(teams.values()), game.table_options, rng)
    except engine.RulesError as error:
        raise from_rules(error) from None
    game.status = Game.Status.PLAYING
    game.started_at = timezone.now()
    _save_state(game, None, state, GameEvent.Kind.START, None, ["status", "started_at"])


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


def _play(
    code: str,
    viewer: Viewer,
    version: int,
    kind: str,
    act: Callable[[engine.GameState, int], engine.GameState],
) -> Game:
    with transaction.atomic():
        game = _locked(code, with_seats=True)
        _check_version(game, version)
        if game.status != Game.Status.PLAYING:
            message = (
                _("The game is over.")
                if game.status == Game.Status.FINISHED
                else _("The game has not started yet.")
            )
            raise ActionError(message, code="not_playing", status=409)
        state = game.engine_state()
        # The seats, read with the game, serve the turn check, the computer-player
        # check and the table the mover gets back.
        seat = _seat_of(game, state.current_player)
        if seat.token not in viewer.tokens:
            if not player_tokens(game) & viewer.tokens:
                # a spectator, who never has a turn to wait for
                raise NotYourSeat(_("You are watching this table: only its players can play."))
            if seat.handed_from:  # a player's seat, the computer's while they are away
                message = gettext("A computer player plays %(name)s's turn.")
            else:
                message = gettext("It is %(name)s's turn, not yours.")
            raise NotYourSeat(message % {"name": isolated_text(seat.shown_name)})
        try:
            new_state = act(state, seat.player_index)
        except engine.RulesError as error:
            raise from_rules(error) from None
        if seat.connections == 0:  # a page without a socket (no JavaScript) that plays
            _seen_now(seat)  # is at the table: not to be skipped as gone
        _save_state(game, state, new_state, kind, seat)
    return game


def _seen_now(seat: Seat) -> None:
    """Count ``seat``'s player away from now only: its browser has just acted."""
    seat.away_since = timezone.now()
    Seat.objects.filter(pk=seat.pk).update(away_since=seat.away_since)


def _save_state(
    game: Game,
    old: engine.GameState | None,
    new: engine.GameState,
    kind: str,
    seat: Seat | None,
    changed: Sequence[str] = (),
    played_as: str = "",
) -> None:
    """Store ``new`` (and the ``changed`` fields), log what changed, bump the version,
    broadcast on commit. ``played_as``: the level a computer player chose the move at,
    where it is not its seat's (``bots.Move.level``)."""
    game.set_engine_state(new)
    fields = ["state", *changed]
    if new.is_finished and game.status != Game.Status.FINISHED:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        fields += ["status", "finished_at"]
    data: dict = {}
    if old is not None and new.turn > old.turn:
        data = _write_score(game, old, new, seat)
    elif kind == GameEvent.Kind.ROLL:
        data = {"dice": list(new.dice), "held": list(new.held), "roll_number": new.roll_number}
    elif kind == GameEvent.Kind.HOLD:
        data = {"held": list(new.held)}
    elif kind == GameEvent.Kind.DECLARE:
        data = {"category": new.target}
    if played_as:
        data["played_as"] = played_as
    next_roll: list[Event] = []
    if new.roll_number == 1 and (old is None or new.turn != old.turn):
        # the automatic first roll of the next turn, logged for replay
        next_roll = [
            (GameEvent.Kind.ROLL, None, {"dice": list(new.dice), "held": [], "roll_number": 1})
        ]
    _bump(game, kind, seat, data, fields, next_roll)
    _wake_bot(game, new)


def _wake_bot(game: Game, state: engine.GameState) -> None:
    """If a computer player is to move, have it move once this transaction commits."""
    if state.is_finished:
        return
    if any(
        seat.player_index == state.current_player and seat.kind == Seat.Kind.BOT
        for seat in game.seats.all()
    ):
        from games import bots

        code, version = game.code, game.version
        transaction.on_commit(lambda: bots.schedule(code, version))


def _write_score(
    game: Game, old: engine.GameState, new: engine.GameState, seat: Seat | None
) -> dict:
    key, points = new.scorecards[old.current_index].entries[-1]
    entry = ScoreEntry(
        game=game,
        scorecard=old.current_index,
        category=key,
        points=points,
        seat=seat,
        turn=old.turn,
    )
    try:
        ScoreEntry.objects.bulk_create([entry])
    except IntegrityError:
        # The row lock makes this unreachable; the constraint is the last guard. No
        # savepoint (two more queries a score): the error leaves the move's
        # transaction, which rolls back, and nothing runs in it after the error.
        raise StaleGame from None
    data = {"category": key, "points": points, "dice": list(old.dice), "turn": old.turn}
    card, before = new.scorecards[old.current_index], old.scorecards[old.current_index]
    if card.yahtzee_bonuses > before.yahtzee_bonuses:  # an extra Yahtzee's +100
        data["bonus"] = YAHTZEE_BONUS_POINTS
    return data


Event = tuple[str, Seat | None, dict]  # kind, the seat that acted, what it did

# the events that the table says happened, as its last move
TABLE_MOVES = frozenset(
    (
        GameEvent.Kind.ROLL,
        GameEvent.Kind.HOLD,
        GameEvent.Kind.DECLARE,
        GameEvent.Kind.SCORE,
        GameEvent.Kind.SKIP,
        GameEvent.Kind.HANDOVER,
        GameEvent.Kind.TAKEBACK,
    )
)


def _bump(
    game: Game,
    kind: str,
    seat: Seat | None,
    data: dict,
    changed: Iterable[str] = (),
    then: Sequence[Event] = (),
) -> None:
    """Bump the version, save it with the ``changed`` fields and no others (the
    spectator count is not the move's to write, and an UPDATE of every column was a
    tenth of a move), and log the event, and the ``then`` events after it, at the new
    version. A move at the table is kept as its last (``Game.last_move``)."""
    game.version += 1
    if kind in TABLE_MOVES:
        game.last_move = {"kind": kind, "seat": seat.position if seat else None, **data}
        changed = [*changed, "last_move"]
    game.save(update_fields=["version", *changed])
    _log(game, [(kind, seat, data), *then])
    code, version = game.code, game.version
    seats = kind in (GameEvent.Kind.HANDOVER, GameEvent.Kind.TAKEBACK)  # a seat changed hands
    transaction.on_commit(lambda: broadcast.game_changed(code, version, seats))


def _log(game: Game, events: Sequence[Event]) -> None:
    GameEvent.objects.bulk_create(
        [
            GameEvent(
                game=game,
                version=game.version,
                kind=kind,
                seat_position=seat.position if seat else None,
                data=data,
            )
            for kind, seat, data in events
        ]
    )
