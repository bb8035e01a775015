"""The Jinja2 environment of the table's template (``jinja_templates/games/table.html``), made by
Django's ``Jinja2`` backend (``settings.TEMPLATES``): what its words and names go through.

Its words are Django's translations, in the active language: ``_("...")`` for a message
of the template's own, written as Django's ``{% translate %}`` writes it (the message
as markup; ``|format`` fills its placeholders and escapes what it puts in, as
``{% blocktranslate %}`` does), ``gettext`` for a name the code marked (escaped where it
is shown), and the plural messages below, as Python, where makemessages finds them
(it finds ``_("...")`` in a Jinja2 template, not a plural). A name is isolated by the
``bdi`` filter of Django's templates (``games.bidi``)."""

from __future__ import annotations

from typing import Any

from django.template.defaultfilters import floatformat
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from jinja2 import Environment
from markupsafe import Markup

from games.scorecard import Scorecard, short_heads
from games.templatetags.bidi import bdi


def translated(message: str) -> Markup:
    """``message`` in the active language, as markup: a message of the template's own,
    as ``{% translate "..." %}`` shows it."""
    return Markup(gettext(message))


def dice_waiting(count: int) -> SafeString:
    """The line that stands for the dice before the turn's first roll."""
    words = ngettext(
        "%(counter)s die waiting for the first roll.",
        "%(counter)s dice waiting for the first roll.",
        count,
    )
    return mark_safe(words % {"counter": count})  # safe: a message and a number


def rolls_left(count: int) -> SafeString:
    """The roll button's rolls left."""
    words = ngettext("%(counter)s roll left", "%(counter)s rolls left", count)
    return mark_safe(words % {"counter": count})  # safe: a message and a number


def computer_players(count: int) -> SafeString:
    """The presence list's line for the site's own computer players, when there are several."""
    words = ngettext("%(counter)s computer player", "%(counter)s computer players", count)
    return mark_safe(words % {"counter": count})  # safe: a message and a number


def watching(count: int) -> SafeString:
    """The presence list's line for the browsers watching."""
    words = ngettext("%(counter)s watching", "%(counter)s watching", count)
    return mark_safe(words % {"counter": count})  # safe: a message and a number


def scorecard_heads(card: Scorecard) -> tuple[tuple[str, str, str], ...]:
    """Each column's head: its name as markup, in plain text, and short (``short_heads``)."""
    return tuple(zip(card.columns, card.titles, short_heads(card.titles), strict=True))


def environment(**options: Any) -> Environment:
    """The environment Django's ``Jinja2`` backend renders the table's template with."""
    env = Environment(**options)
    env.globals.update(
        _=translated,
        gettext=gettext,
        dice_waiting=dice_waiting,
        rolls_left_words=rolls_left,
        computer_players=computer_players,
        watching=watching,
        heads=scorecard_heads,
    )
    env.filters.update(bdi=bdi, floatformat=floatformat)
    return env
