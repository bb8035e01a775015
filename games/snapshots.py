"""Reads of a game shared by the browsers of one process.

``SNAPSHOTS``: the game as the browsers of one process last saw it, per notice.

Every browser at a table answers the same notice, so the first to handle it
reads the game (with its seats) and the others in this process reuse that
read: one database read per notice and process instead of one per browser.
A notice is identified by its stamp: ``v<version>`` for a move, a random token
for a presence change. A read made after the notice arrived is at least as new
as the notice, which is all a consumer needs: it sends the version it read and
skips versions it has sent.

``ARRIVALS``: sockets arriving at a table together share a read of its game.
"""

from __future__ import annotations

import time

from games.bounded import Bounded
from games.models import Game


def read_game(**lookup: object) -> Game | None:
    """The game with everything its table shows: its seats and its next game."""
    games = Game.objects.select_related("next_game").prefetch_related("seats")
    return games.filter(**lookup).first()


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
