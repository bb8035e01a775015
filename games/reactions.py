"""Quick reactions at a table: a few fixed words a seated player sends to everyone at
the table ("Nice throw!"), shown for a moment on every page there. Nothing is kept:
a reaction is a notice on the table's group (``broadcast.reaction``), each socket
says it in its page's language (``TableConsumer.table_reaction``). How often a
browser may send one: ``YATZY_RATES["react"]``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

REACTIONS = {
    "nice": _("Nice throw!"),  # not "roll": the Roll button keeps its name to itself
    "oh-no": _("Oh no"),
    "wow": _("Wow!"),
    "gg": _("Good game"),
}
