"""What the games tell the parts of the site above them, which they do not import."""

from __future__ import annotations

from django.dispatch import Signal

# A game is over: sent once its move has committed, with ``game_id`` (the players'
# records and ratings are worked out then, in the background: players/records.py).
game_finished = Signal()
