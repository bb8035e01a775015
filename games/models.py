"""Rows for games, seats, score entries and the event log; engine state in and out.

The engine's ``GameState`` is the truth during play and lives in ``Game.state``;
``ScoreEntry`` and ``GameEvent`` rows are written beside it so that history and
review pages can query and replay games without unpacking every state.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import clock
from games.names import MAX_NAME_CODE_POINTS, name_key
from games.rules import GameState, TableOptions


def new_game_code() -> str:
    """12 URL-safe characters, never starting with "-": a code is also given to commands
    (``manage.py verify_dice CODE``), which would read it as an option."""
    while (code := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return code


def new_seat_token() -> str:
    return secrets.token_urlsafe(24)


def storable(text: str) -> bool:
    """Whether ``text`` can be compared with what the database holds: PostgreSQL holds no
    NUL in a string and refuses a query that has one, so a code or a token from an
    address that holds one (``%00``) is no game's and no seat's."""
    return "\x00" not in text


class GameQuerySet(models.QuerySet["Game"]):
    def with_code(self, code: str) -> GameQuerySet:
        """The game of ``code``, if there is one."""
        return self.filter(code=code) if storable(code) else self.none()


class Game(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    code = models.CharField(max_length=16, unique=True, default=new_game_code)
    ruleset = models.CharField(max_length=20)
    options = models.JSONField(default=dict)
    state = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    version = models.PositiveIntegerField(default=0)
    public = models.BooleanField(default=True)
    spectators = models.IntegerField(default=0)  # open sockets of browsers without a seat
    coach = models.BooleanField(default=False)
    host_browser = models.CharField(max_length=64)
    next_game = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="previous_game"
    )
    # the seat (its position) of the player who asked for this game as the next one at
    # their finished table ("Play again"), said at the table through its first round
    again_by = models.PositiveSmallIntegerField(null=True, blank=True)
    # the turn timer: seconds a turn may take (0: no timer), and when the turn being
    # played runs out (set as each turn begins, ``services.core.save_state``); the
    # server skips it then, as the host's skip does (``services.expire_turn``)
    turn_seconds = models.PositiveSmallIntegerField(default=0)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    # how fast the table's computer players move (``bots.step_delay``)
    computer_pace = models.CharField(
        max_length=8, choices=[("relaxed", _("Relaxed")), ("fast", _("Fast"))], default="relaxed"
    )
    # the table's last move, as its event logged it with the seat that made it: what
    # the table says happened ("Bob's turn was skipped: 0 in Ones"), and announces
    last_move = models.JSONField(default=dict, blank=True)
    # Committed dice (``rules.fairness``): the secret seed every die of the game is
    # drawn from, shown only once the game is over, and its SHA-256, shown from the
    # start. Empty in games made before dice were committed (and with scripted dice).
    dice_seed = models.CharField(max_length=64, blank=True, editable=False)
    dice_commitment = models.CharField(max_length=64, blank=True, editable=False)
    # A daily challenge's game (``DailyAttempt``) plays the day's seed, which everyone
    # plays that day: it stays secret until then, even once the game is over.
    seed_secret_until = models.DateTimeField(null=True, blank=True, editable=False)
    # The languages the table's pages are in, each code once, space-separated: a move
    # renders its table once in each (``games.rendering.published``). A socket adds its
    # page's language as it arrives (``add_language``); none is taken off.
    languages = models.CharField(max_length=64, blank=True, default="")
    # made by quick play (``services.quick``): two strangers, paired by the site
    quick_play = models.BooleanField(default=False)
    # listed on the Watch page while it is played (``games.watching``): the host's
    # choice; quick play's games are listed always
    watchable = models.BooleanField(default=False)
    # its invited seats anyone may take: listed on the Open tables page while it waits
    # for players and its host is here (``games.open_tables``), then on the Watch page
    open_to_anyone = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()
    # when this object was read (``time.time()``), where its reader says: of two tables
    # of one version, the one read later is the newer (``games.rendering.Published``)
    read_at: float = 0.0
    # the game's seats by position, where its reader read them with it (``read_game``,
    # ``services.core.locked``): a move's checks and its table all ask them (``all_seats``)
    seats_read: list[Seat] | None = None

    class Meta:
        indexes = [models.Index(fields=["status", "-finished_at"])]

    def __str__(self) -> str:
        return f"{self.ruleset} {self.code}"

    @property
    def revealed_seed(self) -> str:
        """The dice seed, once the game is over (and, for a daily challenge's, once its
        day is); "" before (and in games without)."""
        if self.status != self.Status.FINISHED or not self.seed_revealable:
            return ""
        return self.dice_seed

    @property
    def seed_revealable(self) -> bool:
        """Whether the seed's secrecy has no date, or its date has come."""
        return self.seed_secret_until is None or clock.now() >= self.seed_secret_until

    @property
    def among_strangers(self) -> bool:
        """Whether strangers may sit at it: made by quick play, or open to anyone (its
        pages may mute each other's reactions; anyone may watch it)."""
        return self.quick_play or self.open_to_anyone

    @property
    def table_options(self) -> TableOptions:
        return TableOptions.from_dict(self.options)

    def engine_state(self) -> GameState | None:
        """The engine's state, parsed once per ``state`` value: a table render asks for
        it several times, and ``GameState`` is immutable, so the parse is shared."""
        if not self.state:
            return None
        parsed = self.__dict__.get("_parsed_state")
        if parsed is None or parsed[0] is not self.state:
            parsed = (self.state, GameState.from_dict(self.state))
            self.__dict__["_parsed_state"] = parsed
        return parsed[1]

    def started_state(self) -> GameState:
        """The engine's state of a game that has started (is playing or over), which
        every game out of the lobby has."""
        state = self.engine_state()
        if state is None:
            raise ValueError(f"game {self.code} has not started")
        return state

    def all_seats(self) -> list[Seat]:
        """The game's seats by position: those read with the game, else read now."""
        return list(self.seats.all()) if self.seats_read is None else self.seats_read

    @property
    def table_languages(self) -> list[str]:
        return self.languages.split()

    def set_engine_state(self, state: GameState) -> None:
        self.state = state.to_dict()
        self.__dict__["_parsed_state"] = (self.state, state)


def read_game(**lookup: object) -> Game | None:
    """The game with everything its table shows: its seats and its next game."""
    game = first(Game.objects.select_related("next_game").filter(**lookup))
    if game is not None:
        game.read_at = time.time()
        game.seats_read = list(game.seats.all())
    return game


def first(games: models.QuerySet[Game]) -> Game | None:
    """The one game ``games`` finds by a unique field, if any: read without the ORDER BY
    that ``first()`` adds (its query building costs more than the rest of a lookup)."""
    return next(iter(games[:1]), None)


BOT_LEVELS = {"beginner": _("Beginner"), "good": _("Good"), "perfect": _("Perfect")}


def bot_name(number: int, level: str) -> str:
    """The name of the site's computer player ``number`` of strength ``level``."""
    return gettext("Computer %(number)s (%(level)s)") % {
        "number": number,
        "level": BOT_LEVELS.get(level, level),
    }


class Seat(models.Model):
    class Kind(models.TextChoices):
        LOCAL = "local", _("At this screen")
        REMOTE = "remote", _("Invited friend")
        BOT = "bot", _("Computer")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()  # order at the table
    team = models.PositiveSmallIntegerField(null=True, blank=True)  # team tables only
    player_index = models.PositiveSmallIntegerField(null=True, blank=True)  # set at start
    # MAX_NAME characters as they show (``names.characters``), an emoji of up to ten code points
    name = models.CharField(max_length=MAX_NAME_CODE_POINTS, blank=True)
    # ``name`` as the site compares names (``names.name_key``: whatever the case of
    # its letters and the encoding of its accents), kept by ``save`` for the history's
    # search: SQLite's LIKE ignores the case of ASCII letters only. Text, of no set
    # length: NFKC and casefolding lengthen some names (a ligature, an 'ß').
    name_key = models.TextField(blank=True, editable=False)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # A computer player's level; a player's seat keeps the level it was last handed over
    # at, for the next handover (``services.hand_to_bot``).
    bot_level = models.CharField(max_length=12, blank=True)
    token = models.CharField(max_length=40, unique=True, default=new_seat_token)
    browser_id = models.CharField(max_length=64, blank=True)  # the browser holding it
    claimed_at = models.DateTimeField(null=True, blank=True)
    # Presence: open sockets of the browser holding this seat (or of the player's, while
    # the computer plays it for them: ``handed_from``), and since when it has none.
    connections = models.IntegerField(default=0)
    away_since = models.DateTimeField(null=True, blank=True)
    # The token of the player whose seat a computer player took over: theirs to take back,
    # and the kind of seat it was (at the host's screen, a friend's), to be again.
    handed_from = models.CharField(max_length=40, blank=True)
    handed_kind = models.CharField(max_length=10, choices=Kind.choices, blank=True)
    # A computer player the site named ("Computer 2 (Good)") has its number here, and is
    # named in each reader's language (``shown_name``); ``name`` keeps its creator's.
    bot_number = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="unique_seat_position"),
        ]

    def __str__(self) -> str:
        return self.name or f"seat {self.position + 1}"

    def save(self, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields:
            kwargs["update_fields"] = [*fields, "name_key"]
        super().save(**kwargs)

    @property
    def player_token(self) -> str:
        """The token of the seat's player: of a seat the computer plays for a player who
        went away, the player's (``handed_from``; its own token is the computer's, held
        by no browser). Whose seat it is, for presence, the next game and refusals."""
        return self.handed_from or self.token

    @property
    def shown_name(self) -> str:
        """The name the table shows, in the language the page is in."""
        if self.bot_number and self.kind == self.Kind.BOT and not self.handed_from:
            return bot_name(self.bot_number, self.bot_level)
        return self.name

    @property
    def is_open(self) -> bool:
        """An invitation nobody has taken yet."""
        return self.kind == self.Kind.REMOTE and self.claimed_at is None


class CountedSockets(models.Model):
    """The sockets one named server process has counted at a seat (``Seat.connections``)
    or among a game's spectators (``Game.spectators``), where several processes share
    the database. A process that dies without its sockets' goodbyes leaves them
    counted; its successor under the same name takes them off again as it starts
    (``presence.forget_process``), without touching the other processes' counts."""

    process = models.CharField(max_length=64)
    seat = models.ForeignKey(Seat, null=True, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, null=True, on_delete=models.CASCADE, related_name="+")
    sockets = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["process", "seat"], name="unique_process_seat"),
            models.UniqueConstraint(fields=["process", "game"], name="unique_process_game"),
        ]

    def __str__(self) -> str:
        at = f"seat {self.seat_id}" if self.seat_id is not None else f"game {self.game_id}"
        return f"{self.process}: {self.sockets} socket(s) at {at}"


class ScoreEntry(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="score_entries")
    scorecard = models.PositiveSmallIntegerField()
    category = models.CharField(max_length=20)
    points = models.SmallIntegerField()
    seat = models.ForeignKey(Seat, null=True, on_delete=models.SET_NULL)
    turn = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turn"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "scorecard", "category"], name="one_entry_per_category"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.category}: {self.points}"


class GameEvent(models.Model):
    """One step of the game log, stamped with the game version its action produced.

    An action may log more than one step (a score followed by the automatic first
    roll of the next turn); the log replays in ``id`` order.
    """

    class Kind(models.TextChoices):
        CREATE = "create"
        JOIN = "join"
        LEAVE = "leave"
        START = "start"
        ROLL = "roll"
        HOLD = "hold"
        DECLARE = "declare"
        SCORE = "score"
        SKIP = "skip"
        REMOVE = "remove"
        AGAIN = "again"
        HANDOVER = "handover"  # a seat given to a computer player
        TAKEBACK = "takeback"  # and taken back by its player
        OPEN = "open"  # the host opened the room to anyone, or closed it again

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seat_position = models.PositiveSmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "version"])]

    def __str__(self) -> str:
        return f"{self.kind} at version {self.version}"


class DailyChallenge(models.Model):
    """A day's challenge for one rule set: a solo game whose dice everyone that day
    draws from the same committed seed (``rules.fairness``; the dice follow from the
    turn, the roll and the die's position alone). The seed is revealed once the day
    (UTC) is over."""

    day = models.DateField()
    ruleset = models.CharField(max_length=20)
    seed = models.CharField(max_length=64, editable=False)
    commitment = models.CharField(max_length=64, editable=False)
    # What the Perfect computer player scores on the day's dice, once worked out
    # (``games.daily.par_of``: it needs the solver's tables)
    par = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "ruleset"], name="one_challenge_a_day"),
        ]

    def __str__(self) -> str:
        return f"{self.ruleset} {self.day}"


class DailyAttempt(models.Model):
    """One game of a daily challenge, by one browser. A browser's first attempt
    finished within the day counts on the day's table; the others are practice."""

    class Result(models.TextChoices):
        PLAYING = "playing", _("Playing")
        COUNTED = "counted", _("Counted")
        PRACTICE = "practice", _("Practice")
        LATE = "late", _("Finished after the day")

    challenge = models.ForeignKey(DailyChallenge, on_delete=models.CASCADE, related_name="attempts")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="daily")
    browser_id = models.CharField(max_length=64)
    name = models.CharField(max_length=MAX_NAME_CODE_POINTS)  # the player's, as at the table
    result = models.CharField(max_length=10, choices=Result.choices, default=Result.PLAYING)
    score = models.SmallIntegerField(null=True, blank=True)
    # points lost against perfect play over the game's decisions, once analysed
    lost = models.FloatField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["challenge", "browser_id"],
                condition=models.Q(result="counted"),
                name="one_counted_attempt_per_browser",
            ),
        ]
        indexes = [models.Index(fields=["challenge", "browser_id"])]

    def __str__(self) -> str:
        return f"{self.challenge}: {self.game.code} ({self.result})"


class QuickQueue(models.Model):
    """Quick play's queue of one rule set, as a row to lock: a press locks its rule
    set's while it pairs (``services.quick.press``), so that two presses at once, in
    any server processes, find each other, and nobody is seated twice."""

    ruleset = models.CharField(max_length=20, unique=True)

    def __str__(self) -> str:
        return self.ruleset


class Seek(models.Model):
    """A browser waiting for a stranger to play (quick play; lichess's word), one at a
    time: its last press (or its waiting page's socket) says for which rule set, under
    which name. It waits while its waiting page is open (``sockets``, and ``seen_at``:
    the page's last sign of life) and until a stranger's press seats both at a new
    ``game``."""

    browser_id = models.CharField(max_length=64, unique=True)
    ruleset = models.CharField(max_length=20)
    name = models.CharField(max_length=MAX_NAME_CODE_POINTS)
    waiting_since = models.DateTimeField()
    seen_at = models.DateTimeField()
    sockets = models.PositiveIntegerField(default=0)  # its waiting pages' open sockets
    seated_at = models.DateTimeField(null=True, blank=True)  # at ``game``, since
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        indexes = [models.Index(fields=["ruleset", "waiting_since"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.ruleset})"
