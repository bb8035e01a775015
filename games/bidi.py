"""Players' names in the page, isolated from the words and numbers around them.

A name is its player's own text: Arabic or Hebrew, say, or (stored before names were
cleaned of them) one holding a bidi control such as U+202E. Put into a sentence or a
list as it is, it takes part in the Unicode bidirectional algorithm with its
neighbours: after a right-to-left name "Anna scored 1 in Ones." showed as
".senO ni 1 derocs annA", and an override reversed the rest of its line ("Mallory 22,
Bob 35" as "53 boB ,22 yrollaM"). An isolated name keeps its own direction inside
itself and leaves the text around it as it reads without it, so every name the site
puts into a page is isolated:

- in markup, in ``<bdi>`` (``isolated``, and the ``bdi`` filter of the templates);
- in plain text, where no element can go (an attribute such as ``aria-label``, a
  message that is escaped whole), between FSI (U+2068) and PDI (U+2069), which
  isolate as ``<bdi>`` does (``isolated_text``, a team's ``team_text``).

A team's name is its players' names, each isolated, joined by "&" (``team``): one
isolate around the whole would keep an override of its first name going over the rest.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from django.utils.safestring import SafeString, mark_safe

FSI = "\u2068"  # FIRST STRONG ISOLATE: the text after it takes its own direction...
PDI = "\u2069"  # POP DIRECTIONAL ISOLATE: ...up to here


def isolated(name: str) -> SafeString:
    """``name`` as markup: escaped, in ``<bdi>``. A string join, not ``format_html``:
    the table's markup isolates names on every move (docs/performance.md)."""
    return mark_safe(f"<bdi>{escape(name)}</bdi>")  # safe: the name is escaped


def team(names: Iterable[str]) -> SafeString:
    """The name of a scorecard as markup: its players' names, each isolated, joined by
    "&" ("Alice & Carol"); one name for a player on their own."""
    return mark_safe(" &amp; ".join(map(isolated, names)))  # safe: each is markup


def isolated_text(name: str) -> str:
    """``name`` isolated in plain text, between FSI and PDI."""
    return f"{FSI}{name}{PDI}"


def team_text(names: Iterable[str]) -> str:
    """The name of a scorecard in plain text (an attribute, such as a column's title): its
    players' names, each isolated, joined by "&"."""
    return " & ".join(map(isolated_text, names))
