"""The Jinja2 environment of the table's template (``jinja_templates/games/table.html``),
made by Django's ``Jinja2`` backend (``settings.TEMPLATES``): what its words and names
go through.

Its words are Django's translations, in the active language: ``_("...")`` for a message
of the template's own, written as Django's ``{% translate %}`` writes it (the message
as markup; ``|fill`` fills its placeholders and escapes what it puts in, as
``{% blocktranslate %}`` does), ``gettext`` for a name the code marked (escaped where it
is shown), and the plural messages below, as Python, where makemessages finds them
(it finds ``_("...")`` in a Jinja2 template, not a plural). A name is isolated by the
``bdi`` filter of Django's templates (``games.bidi``)."""

from __future__ import annotations

from typing import Any

from django.template.defaultfilters import floatformat
from django.utils.functional import Promise
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from jinja2 import Environment, Undefined
from markupsafe import Markup

from games.templatetags.bidi import bdi


def django_escaped(value: object) -> object:
    """What a ``{{ }}`` shows, escaped as Django's templates escape it: Jinja2 writes an
    apostrophe ``&#39;`` and a quote ``&#34;``, Django ``&#x27;`` and ``&quot;``, and
    the table reads as the same bytes whichever template language wrote it. Only a
    plain string with either needs Django's ``escape``; anything else Jinja2 escapes
    as Django would (markup is shown as it is; a lazy translation is a string)."""
    if isinstance(value, Promise):
        value = str(value)
    if type(value) is str and ("'" in value or '"' in value):
        return escape(value)
    return value


def filled(message: str, **values: Any) -> SafeString:
    """``message`` (markup) with its placeholders filled by ``values``, each escaped as
    Django's templates escape (``django_escaped``), as ``{% blocktranslate %}`` fills
    its message."""
    return mark_safe(message % {name: conditional_escape(v) for name, v in values.items()})


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


def environment(**options: Any) -> Environment:
    """The environment Django's ``Jinja2`` backend renders the table's template with."""
    # a name the template does not have shows as nothing, as in Django's templates, with
    # DEBUG on too (Django's backend would show it then, ``DebugUndefined``)
    options["undefined"] = Undefined
    env = Environment(**options, finalize=django_escaped)
    env.globals.update(
        _=translated,
        gettext=gettext,
        dice_waiting=dice_waiting,
        rolls_left_words=rolls_left,
        computer_players=computer_players,
        watching=watching,
    )
    env.filters.update(bdi=bdi, fill=filled, floatformat=floatformat)
    return env
