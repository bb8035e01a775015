"""The actions of the site, one transaction each, split by what they do: the room and
its seats (``rooms``), the moves of the player to move (``play``), the actions on a
player who has gone away (``away``) and a computer player's step (``computer``).
``core`` holds the steps they share: lock, check the version, save, log, publish on
commit. The views and the computer players call them through this package."""

from games.services.away import hand_to_bot, skip_turn, take_back
from games.services.computer import bot_move, expire_turn
from games.services.core import get_game
from games.services.daily import NoSuchChallenge, play_daily
from games.services.play import declare, hold, roll, score, toggle_die
from games.services.rooms import (
    MAX_SEATS,
    SeatSpec,
    claim_seats_of_browser,
    create_game,
    games_in_progress,
    games_of,
    join,
    leave,
    local_tokens,
    open_room,
    play_again,
    remove_seat,
    start,
    tokens_in_play,
)

__all__ = [
    "MAX_SEATS",
    "NoSuchChallenge",
    "SeatSpec",
    "bot_move",
    "claim_seats_of_browser",
    "create_game",
    "declare",
    "expire_turn",
    "games_in_progress",
    "games_of",
    "get_game",
    "hand_to_bot",
    "hold",
    "join",
    "leave",
    "local_tokens",
    "open_room",
    "play_again",
    "play_daily",
    "remove_seat",
    "roll",
    "score",
    "skip_turn",
    "start",
    "take_back",
    "toggle_die",
    "tokens_in_play",
]
