"""Reads of a game shared by the browsers of one process.

``SNAPSHOTS``: the game as the browsers of one process last saw it, per notice.

Every browser at a table answers the same notice, so the first to handle it
reads the game (with its seats) and the others in this process reuse that
read: one database read per notice and process instead of one per browser.
A move made in this process leaves its game here as it commits, so the
browsers at that table need no read at all. A notice is identified by its
stamp: ``v<version>`` for a move, a random token for a presence change. A read
made after the notice arrived is at least as new as the notice, which is all a
consumer needs: it sends the version it read and skips versions it has sent.

``ARRIVALS``: sockets arriving at a table together share a read of its game.
"""

from __future__ import annotations

import time

from games import queries
from games.bounded import Bounded
from games.models import Game


def read_game(**lookup: object) -> Game | None:
    """The game with everything its table shows: its seats and its next game."""
    try:
        game = Game.objects.select_related("next_game").get(**lookup)
    except Game.DoesNotExist:
        return None
    return with_seats(game)


def with_seats(game: Game) -> Game:
    """``game`` with its seats read, for ``game.seats.all()`` to answer without a query.

    A plain query by the game's id, not ``prefetch_related``: Django links prefetched
    seats, and the queryset holding them, back to their game, so every game read that
    way was a reference cycle, freed only by the cyclic garbage collector. The games
    kept here outlive its young generations, and under load its full passes stopped
    the server for 120-240 ms every few seconds (docs/performance.md, round 4); the
    prefetch machinery was also a tenth of a move's CPU. Without the links a game is
    freed as soon as its last reference goes."""
    seats = queries.seats_of(game)
    cache = getattr(game, "_prefetched_objects_cache", {})
    game._prefetched_objects_cache = {**cache, "seats": seats}
    return game


def seats_at_hand(game: Game) -> bool:
    """Whether the game's seats were read with it (a table needs no further read)."""
    return "seats" in getattr(game, "_prefetched_objects_cache", {})


def move_stamp(version: int) -> str:
    return f"v{version}"


class Snapshots:
    def __init__(self, size: int = 64) -> None:
        self._games: Bounded[tuple[int, str, str], Game | None] = Bounded(size)

    def get(self, game_id: int, code: str, stamp: str | None) -> Game | None:
        """The game for the notice ``stamp``, read once per stamp (every time without)."""
        # The code is in the key because ids are reused (a test database rolls back).
        key = (game_id, code, stamp or "")
        if stamp and key in self._games:
            return self._games[key]
        game = read_game(id=game_id)
        if stamp:
            self._games[key] = game
        return game

    def peek(self, game_id: int, code: str, stamp: str | None) -> Game | None:
        """The game for ``stamp`` if it is here; never reads the database."""
        return self._games.get((game_id, code, stamp or "")) if stamp else None

    def put(self, game: Game) -> bool:
        """Keep ``game`` as committed by a move, for the notice of its version. Only a
        game with its seats at hand is kept (rendering it must not need a read):
        returns whether it was."""
        if not seats_at_hand(game):
            return False
        self._games[(game.id, game.code, move_stamp(game.version))] = game
        return True


SNAPSHOTS = Snapshots()


class ArrivalReads:
    """A read of a game serves every socket that had joined the table's group before
    the read began: a move committed after the read is announced to all of them, one
    committed before it is in it. A reconnect storm at one table is then a few reads,
    not one per browser."""

    def __init__(self, size: int = 256) -> None:
        self._reads: Bounded[str, tuple[float, Game]] = Bounded(size)

    def get(self, code: str, joined_at: float) -> Game | None:
        read = self._reads.get(code)
        if read is not None and read[0] > joined_at:
            return read[1]
        began = time.monotonic()
        game = read_game(code=code)
        if game is not None:
            self._reads[code] = (began, game)
        return game


ARRIVALS = ArrivalReads()
