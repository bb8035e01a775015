"""What the table shows one viewer, as data: ``table_view`` (the turn, the dice, the
presence list, the scorecard's cells), and the other contexts of the table's and
lobby's pages. ``games.rendering`` renders it; nothing here renders."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from django.http import HttpRequest
from django.urls import reverse
from django.utils import formats
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from games import daily, rules, seating
from games.bidi import isolated
from games.models import Game, GameEvent, Seat
from games.scorecard import Scorecard, column_heads, scorecard
from games.strategy.bots import perfect_plays_as_good
from games.viewer import Viewer

RULESET_NAMES = {
    "yatzy": _("Scandinavian Yatzy"),
    "yahtzee": _("American Yahtzee"),
    "maxi_yatzy": _("Maxi Yatzy"),
}


def quick_counts(counts: dict[str, int], mine: str) -> list[dict]:
    """Each rule set, how many wait for it in quick play, and whether it is the one this
    browser waits for (the waiting page's list, rendered by the page and by its socket)."""
    return [
        {"ruleset": key, "name": name, "count": counts.get(key, 0), "mine": key == mine}
        for key, name in RULESET_NAMES.items()
    ]


def seat_names(game: Game) -> dict[int, str]:
    return {
        seat.player_index: seat.shown_name
        for seat in game.all_seats()
        if seat.player_index is not None
    }


class Winner(NamedTuple):
    """Who is in first place, once the game is over."""

    names: SafeString  # their names as markup ("Alice, Bob and Carol"), each isolated
    total: int
    sharing: int  # scorecards in first place: more than one for a tie
    team: bool  # first place is a team's (its name is its players': "Alice & Carol")
    alone: bool  # the only scorecard at the table: a score to say, nobody beaten


class JokerWords(NamedTuple):
    """How the joker rule applies to the dice rolled (RULES.md 2.2), for the table to say
    why it offers the scores it does; only when it has something to say."""

    rule: rules.Joker
    category: str  # the translated name of the upper box of the dice's face
    rule_said: bool  # where the Yahtzee goes is said (the bonus may be said after it)


class Turn(NamedTuple):
    """What the title, the turn banner and the target line say. The banner says both
    what the player to move reads ("Your turn, Alice") and what everyone else reads
    ("Alice's turn"); the page shows one of them (``Me``)."""

    ruleset_name: str
    house_rules: str  # the options beyond the rule set's own, in words (``options_words``)
    finished: bool
    winner: Winner | None
    player_to_move: str
    computer_to_move: bool  # the player to move is a computer player (it thinks, not rolls)
    away_to_move: bool  # the player to move is a friend with no page open (the presence list)
    roll_number: int
    declaring: bool  # the player to move must declare a target before scoring
    rolls_left: int
    target_name: str  # the declared target of this turn, translated
    joker: JokerWords | None  # said to everyone, as it explains the scores offered


class Presence(NamedTuple):
    """The presence list: (class, name) per line, and the site's own computer players
    counted in one line when there are several (``presence``)."""

    lines: tuple[tuple[str, str], ...]
    computers: int


class Table(NamedTuple):
    """Everything the table shows at one version, the same for every viewer: the
    controls of the player to move are in it, and each page shows them only where
    its viewer holds that seat (``Me``)."""

    code: str
    urls: dict[str, str]
    turn: Turn
    dice: tuple[tuple[int, bool], ...]  # (face, held) per die
    dice_count: int
    roll: str  # which roll the dice are of ("turn.roll"; "" before the turn's first)
    to_move: int | None  # the player index of the player to move (None: nobody)
    can_hold: bool  # the player to move may hold dice
    can_roll: bool  # and roll
    can_hint: bool  # and ask the coach
    presence: Presence
    skippers: str  # who may skip the player to move: "host", "players" or "" (nobody)
    skip_category: str  # where a skip would score its zero, translated (when skippers)
    can_play_again: bool  # the players may, at the end (not a daily challenge's)
    ranking: tuple[tuple[int, str, int, bool], ...]  # (rank, name as markup, total, winner)
    scorecard: Scorecard
    redirect: str  # where a browser at a finished table goes next, if anywhere
    last_move: SafeString  # what happened last ("Bob's turn was skipped: 0 in Ones")
    again_by: SafeString  # who asked for this game at the last one's end, through round 1
    turn_seconds: int  # the turn timer's (0: none)
    deadline_ms: int  # when the turn being played runs out, in ms since the epoch (0: never)
    turn_passed: bool  # and it passed the turn on
    perfect_as_good: str  # that its Perfect computer players play as Good, translated
    dice_commitment: str  # the dice fingerprint ("" in games without committed dice)
    dice_seed: str  # the seed it commits to, once the game is over (else "")
    daily: DailyNote | None  # what daily challenge the game is, if it is one


class DailyNote(NamedTuple):
    """A daily challenge's game: which day's, where the day's table is, and whether
    it is practice (its browser has a result that counts, or the day is over)."""

    day: str  # as the language writes dates
    url: str
    practice: bool


def daily_note(game: Game) -> DailyNote | None:
    attempt = daily.attempt_of(game)
    if attempt is None:
        return None
    challenge = attempt.challenge
    return DailyNote(
        day=formats.date_format(challenge.day, "DATE_FORMAT"),
        url=daily.day_url(challenge),
        practice=daily.is_practice(attempt),
    )


class Confirm(NamedTuple):
    """A zero score waiting for the player to confirm it."""

    key: str  # the category's
    name: str  # translated
    bonus: int  # an extra Yahtzee the joker rule puts at 0 still earns the Yahtzee bonus


def table_view(game: Game) -> Table:
    """Everything the table shows at this version, but the spectators."""
    seats = game.all_seats()
    state = game.started_state()
    names = {s.player_index: s.shown_name for s in seats if s.player_index is not None}
    to_move = state.current_player
    declaring = bool(
        to_move is not None
        and state.options.declared_target
        and state.roll_number > 0
        and not state.target
    )
    ranking = _ranking(state, names) if state.is_finished else ()
    teams = any(seat.team is not None for seat in seats)
    turn = Turn(
        ruleset_name=str(RULESET_NAMES.get(game.ruleset, game.ruleset)),
        # the house rules are said at the table: a player in forced order, say, is
        # offered a single score, and would not know why
        house_rules=options_words(state.options, teams),
        finished=state.is_finished,
        winner=_winner(state, ranking) if ranking else None,
        player_to_move=names.get(to_move, "") if to_move is not None else "",
        computer_to_move=any(
            seat.kind == Seat.Kind.BOT for seat in seats if seat.player_index == to_move
        ),
        away_to_move=any(
            seat.kind == Seat.Kind.REMOTE and seat.connections == 0
            for seat in seats
            if seat.player_index == to_move
        ),
        roll_number=state.roll_number,
        declaring=declaring,
        rolls_left=rules.MAX_ROLLS - state.roll_number,
        target_name=gettext(state.ruleset.category(state.target).name) if state.target else "",
        joker=_joker(state),
    )
    playing = to_move is not None and not state.is_finished
    skip = seating.skippers(game, seats, to_move) if playing else seating.NOBODY_SKIPS
    skippers = "players" if skip.players else "host" if skip.host is not None else ""
    return Table(
        code=game.code,
        urls=table_urls(game.code),
        turn=turn,
        dice=tuple((face, i in state.held) for i, face in enumerate(state.dice)),
        dice_count=state.dice_count,
        # a browser shown another roll than before animates the dice it rolled (table.js)
        roll=f"{state.turn}.{state.roll_number}" if state.roll_number else "",
        to_move=to_move if playing else None,
        can_hold=playing and 0 < state.roll_number < rules.MAX_ROLLS,
        can_roll=playing
        and state.roll_number < rules.MAX_ROLLS
        and not declaring
        and len(state.held) < state.dice_count,
        can_hint=playing and game.coach,
        presence=presence(
            tuple(
                (seat.kind, seat.shown_name, seat.connections > 0, bool(seat.handed_from))
                for seat in seats
            )
        ),
        skippers=skippers,
        skip_category=gettext(state.ruleset.category(rules.skipped_category(state)).name)
        if skippers
        else "",
        # (only the end asks; a daily challenge has no next game)
        can_play_again=game.seed_secret_until is None,
        ranking=ranking,
        scorecard=scorecard(state, names, playing, declaring),
        redirect=table_urls(game.next_game.code)["table"] if game.next_game else "",
        last_move=last_move_words(game.last_move, state, {s.position: s.shown_name for s in seats}),
        again_by=again_words(game, state, seats),
        turn_seconds=game.turn_seconds,
        deadline_ms=int(game.turn_deadline.timestamp() * 1000)
        if game.turn_deadline and not state.is_finished
        else 0,
        turn_passed=game.last_move.get("kind") in _PASSING_THE_TURN,
        perfect_as_good="" if state.is_finished else perfect_as_good(game, seats),
        dice_commitment=game.dice_commitment,
        dice_seed=game.revealed_seed,
        daily=daily_note(game),
    )


class Me(NamedTuple):
    """Who is looking at a table page, for the page to show what is theirs: the
    controls of the player to move where it holds that seat, the skip where it is the
    host (or a player, once the host is away too), Play again where it plays. The
    table itself is the same bytes for everyone; the page carries this once, as it
    loads (``#me``, and the classes of ``.table-page``: flow.css, table.js)."""

    players: tuple[int, ...]  # the player indexes of the seats it plays
    host: bool
    player: bool  # it holds a seat at this table (a seat handed to the computer too)
    my_turn: bool  # the player to move is one of its

    @property
    def classes(self) -> str:
        named = (
            ("my-turn", self.my_turn),
            ("host", self.host),
            ("player", self.player),
            ("hot-seat", len(self.players) > 1),  # pass and play: the device goes round
        )
        return " ".join(name for name, on in named if on)

    def may_skip(self, skippers: str) -> bool:
        """Whether the skip offered to ``skippers`` ("host", "players") is this page's."""
        if not skippers or self.my_turn:
            return False
        return self.host or (self.player and skippers == "players")

    @property
    def players_text(self) -> str:
        return " ".join(str(index) for index in self.players)


def me(game: Game, viewer: Viewer) -> Me:
    seats = game.all_seats()
    players = tuple(
        s.player_index for s in seats if s.player_index is not None and s.token in viewer.tokens
    )
    state = game.engine_state()
    to_move = state.current_player if state is not None and not state.is_finished else None
    return Me(
        players=players,
        host=bool(viewer.browser_id) and game.host_browser == viewer.browser_id,
        player=bool(seating.player_tokens(game) & viewer.tokens),
        my_turn=to_move is not None and to_move in players,
    )


def perfect_as_good(game: Game, seats: list[Seat]) -> str:
    """What the table tells its players when its Perfect computer players play as Good
    (``perfect_plays_as_good``): the level they were chosen at promises more. Empty
    when they play perfectly, or there are none."""
    perfect = sum(1 for s in seats if s.kind == Seat.Kind.BOT and s.bot_level == "perfect")
    why = perfect_plays_as_good(game.ruleset, game.table_options) if perfect else ""
    if why == "being solved":
        return ngettext(
            "The Perfect computer player plays as Good until this table's strategy is"
            " worked out (about a minute).",
            "The Perfect computer players play as Good until this table's strategy is"
            " worked out (about a minute).",
            perfect,
        )
    if why == "not built":
        # nothing is building them: say so, not "about a minute"; what builds them is
        # the operator's business (README), no command line for a player (issue 46)
        return ngettext(
            "The Perfect computer player plays as Good: this site has not worked out"
            " perfect play for these rules.",
            "The Perfect computer players play as Good: this site has not worked out"
            " perfect play for these rules.",
            perfect,
        )
    return ""


def _joker(state: rules.GameState) -> JokerWords | None:
    """How the joker rule applies to the dice on the table, and the translated name of
    the upper box of their face; None when it does not apply, or has nothing to say."""
    joker = rules.joker(state)
    if joker is None:
        return None
    rule_said = joker.goes_in != "table" or joker.upper_used
    if not (rule_said or joker.bonus or joker.yahtzee_scratched):
        return None
    return JokerWords(joker, gettext(state.ruleset.category(joker.upper).name), rule_said)


def presence(seats: tuple[tuple[str, str, bool, bool], ...]) -> Presence:
    """The presence list of the seats given as (kind, name, connected, a friend's seat
    the computer plays for now): the players, connected or away, and the computer
    players. The players at the host's screen are listed only at a table with friends
    (at a table of one screen, all are there or none), also once the computer plays
    for all of them. The site's own computer players are one line when there are
    several ("15 computer players"): always there, they each took a line between the
    dice and the scorecard, which a phone scrolled past every turn; their names head
    the scorecard's columns. A friend's seat the computer plays for keeps its line."""
    lines: list[tuple[str, str]] = []
    computers: list[tuple[str, str]] = []
    friends = any(kind == Seat.Kind.REMOTE or handed for kind, _name, _on, handed in seats)
    for kind, name, connected, handed in seats:
        if kind == Seat.Kind.REMOTE or (kind == Seat.Kind.LOCAL and friends):
            lines.append(("online" if connected else "offline", name))
        elif kind == Seat.Kind.BOT:
            (lines if handed else computers).append(("bot", name))
    if len(computers) > 1:
        return Presence(tuple(lines), len(computers))
    return Presence(tuple(lines + computers), 0)


_PASSING_THE_TURN = (GameEvent.Kind.SCORE, GameEvent.Kind.SKIP)


# what the table says of its last move, by the move's kind (``last_move_words``)
_MOVE_WORDS = {
    GameEvent.Kind.ROLL: _("%(name)s rolled %(dice)s."),
    GameEvent.Kind.HOLD: _("%(name)s holds %(dice)s."),
    GameEvent.Kind.DECLARE: _("%(name)s declared %(category)s as the target."),
    GameEvent.Kind.SCORE: _("%(name)s scored %(points)s in %(category)s."),
    GameEvent.Kind.SKIP: _("%(name)s's turn was skipped: %(points)s in %(category)s."),
    GameEvent.Kind.HANDOVER: _("A computer player plays for %(name)s now."),
    GameEvent.Kind.TAKEBACK: _("%(name)s is back and plays again."),
}
_NO_DICE_HELD = _("%(name)s holds no dice.")
_WITH_BONUS = _("%(name)s scored %(points)s in %(category)s and a Yahtzee bonus of %(bonus)s.")


def last_move_words(move: dict, state: rules.GameState, names: dict[int, str]) -> SafeString:
    """``Game.last_move`` in words ("Bob's turn was skipped: 0 in Ones"), as markup:
    the name in it isolated (``bidi``); empty for none. ``names`` are the seats' names
    by position. The translations' own text is markup, as in a template."""
    kind, seat = move.get("kind"), move.get("seat")
    name = names.get(seat, "") if seat is not None else ""
    if not name or kind not in _MOVE_WORDS:
        return SafeString()
    words = _MOVE_WORDS[kind]
    values = {"name": isolated(name), "points": move.get("points"), "bonus": move.get("bonus")}
    if "category" in move:
        values["category"] = escape(gettext(state.ruleset.category(move["category"]).name))
    if kind == GameEvent.Kind.ROLL:
        values["dice"] = ", ".join(map(str, move["dice"]))
    elif kind == GameEvent.Kind.HOLD:
        values["dice"] = ", ".join(str(state.dice[p]) for p in sorted(move["held"]))
        words = words if move["held"] else _NO_DICE_HELD
    elif move.get("bonus"):
        words = _WITH_BONUS
    # safe: the translation's own text is markup, as in a template, and every value in
    # it is escaped (the name isolated)
    return mark_safe(str(words) % values)


def again_words(game: Game, state: rules.GameState, seats: list[Seat]) -> SafeString:
    """Who asked for this game at the end of the last one ("Alice started this
    rematch."), said through the first round, as markup (the name isolated); empty
    for a first game and after the first round."""
    name = next((s.shown_name for s in seats if s.position == game.again_by), "")
    if not name or state.round > 0:
        return SafeString()
    # safe: as in ``last_move_words``, the translation is markup and the name isolated
    return mark_safe(gettext("%(name)s started this rematch.") % {"name": isolated(name)})


def handed_over(game: Game, viewer: Viewer) -> tuple[tuple[int, str], ...]:
    """The positions and names of the seats ``viewer`` is offered to take back from the
    computer (each button names its seat: a browser may have had several)."""
    return tuple((seat.position, seat.name) for seat in seating.handed_over(game, viewer))


_TABLE_ACTIONS = (
    "table",
    "roll",
    "hold",
    "declare",
    "score",
    "hint",
    "skip_turn",
    "hand_to_bot",
    "take_back",
    "play_again",
    "review",
)


@lru_cache(maxsize=4096)
def table_urls(code: str) -> dict[str, str]:
    """The table's links and form actions, reversed once per game and process rather
    than a dozen times per rendering."""
    return {name: reverse(name, args=[code]) for name in _TABLE_ACTIONS}


def _ranking(state: rules.GameState, names: dict[int, str]) -> tuple:
    columns = column_heads(state, names)
    return tuple((rank, columns[index], total, rank == 1) for rank, index, total in state.ranking())


def _winner(state: rules.GameState, ranking: tuple) -> Winner:
    """Who is in first place: their names (markup, as ``column_heads``) in one list."""
    team = any(
        len(state.scorecards[index].players) > 1
        for rank, index, _total in state.ranking()
        if rank == 1
    )
    names = [name for _, name, _, first in ranking if first]
    if len(names) > 1:  # "Alice, Bob and Carol", as ``get_text_list`` says it
        listed = format_html_join(", ", "{}", ((name,) for name in names[:-1]))
        together = format_html("{} {} {}", listed, gettext("and"), names[-1])
    else:
        together = names[0]
    return Winner(together, ranking[0][2], len(names), team, len(state.scorecards) == 1)


def options_text(game: Game) -> str:
    """The table options a game is played with beyond its rule set's own, in words
    ("Upper section only, Forced order, 30 seconds a turn"); empty for none. The turn
    timer is said too: a friend invited should know it before taking a seat."""
    teams = any(seat.team is not None for seat in game.all_seats())
    words = options_words(game.table_options, teams)
    if not game.turn_seconds:
        return words
    timer = ngettext(
        "%(seconds)d second a turn", "%(seconds)d seconds a turn", game.turn_seconds
    ) % {"seconds": game.turn_seconds}
    return f"{words}, {timer}" if words else timer


def options_words(options: rules.TableOptions, teams: bool) -> str:
    """The table options beyond the rule set's own, in words ("Upper section only,
    Forced order"); empty for none."""
    chosen = [
        (options.upper_only, gettext_noop("Upper section only")),
        (options.forced_order, gettext_noop("Forced order")),
        (options.declared_target, gettext_noop("Declared target")),
        (options.auto_first_roll, gettext_noop("Automatic first roll")),
        (options.upper_bonus == 25, gettext_noop("Upper bonus of 25")),
        # an upper-section-only game has no Yahtzee box, so no Yahtzee bonus to go without
        (not options.yahtzee_bonus and not options.upper_only, gettext_noop("No Yahtzee bonus")),
        (teams, gettext_noop("Teams")),
    ]
    # translated only where said: every table of every move asks (each gettext finds
    # the active language in asgiref's context-local storage)
    return ", ".join(gettext(text) for on, text in chosen if on)


def host_name(game: Game) -> str:
    """The name of the host's first seat (at the host's screen), or empty."""
    return next((s.name for s in seating.host_seats(game)), "")


def whole_link(request: HttpRequest | None, path: str) -> str:
    """A link to copy to another device: with the site's address, where a request says
    it (a push over the socket carries the path, made whole by the page: table.js)."""
    return request.build_absolute_uri(path) if request else path


def rejoin_links(
    game: Game, viewer: Viewer, request: HttpRequest | None, seats: list[Seat]
) -> list[tuple[str, str]]:
    """(the seat's name, its personal link) for each of ``seats`` this browser plays:
    the link takes the seat to another device (a seat the computer plays while its
    player is away included: the link offers it back)."""
    return [
        (seat.name, whole_link(request, reverse("rejoin", args=[game.code, seat.player_token])))
        for seat in seats
        if seat.player_token in viewer.tokens
    ]


def lobby_context(game: Game, viewer: Viewer, request: HttpRequest | None = None) -> dict:
    join_path = reverse("join", args=[game.code])
    seats = game.all_seats()
    mine = [seat for seat in seats if seat.token in viewer.tokens]
    hosts = seating.host_seats(game, seats)
    removed = (
        not mine
        and bool(viewer.browser_id)
        and game.events.filter(kind=GameEvent.Kind.REMOVE, data__browser=viewer.browser_id).exists()
    )
    return {
        "game": game,
        "removed": removed,  # the host took this browser's seat away
        "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
        "options": options_text(game),
        # (seat, label, whether the host may remove it: not the host's own last seat)
        "seats": [(seat, seat_label(seat), [seat] != hosts) for seat in seats],
        "is_host": game.host_browser == viewer.browser_id,
        "my_seats": mine,
        # named once the browser holds several
        "rejoin_links": rejoin_links(game, viewer, request, seats),
        "invite_url": whole_link(request, join_path),
        "open_seats": sum(1 for seat in seats if seat.is_open),
        "filled_seats": sum(1 for seat in seats if not seat.is_open),
        "perfect_as_good": perfect_as_good(game, seats),
    }


def seat_label(seat: Seat) -> str:
    return seat.shown_name or gettext("Open seat %(number)s") % {"number": seat.position + 1}
