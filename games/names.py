"""Players' names: how one is tidied, measured, cut and told apart from another.

Pure text: the services refuse or take a name by these, the models keep its key."""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext

MAX_NAME = 40
# A browser's maxlength counts UTF-16 code units, and one character as tidy_name counts it
# is at most four of them (ᾂ typed as α and three accents; an emoji is two): a name field
# that takes this many cuts no name a seat would take. The server measures names; this
# only keeps a pasted page out of the field.
MAX_NAME_TYPED = 4 * MAX_NAME


def seat_name(name: str) -> str:
    """A name as the table shows it: no control characters (PostgreSQL stores no NUL,
    and none shows), no spaces around it, at most ``MAX_NAME`` long; empty if nothing
    of it would show (spaces and invisible characters only, as a zero-width space)."""
    name = tidy_name(name)[:MAX_NAME]
    return name if any(unicodedata.category(c)[0] in "LNPS" for c in name) else ""


def name_too_long(name: str) -> str:
    """Why ``name`` cannot be a player's name: it is longer than ``MAX_NAME`` as it shows
    (``tidy_name``); empty if it is not. A name is refused, not cut: cut, it is not the
    name typed, and may be another player's."""
    shown = tidy_name(name)
    if len(shown) <= MAX_NAME:
        return ""
    message = gettext("A name has at most %(max)s characters: %(name)s has %(length)s.")
    return message % {"max": MAX_NAME, "name": shown, "length": len(shown)}


def tidy_name(name: str) -> str:
    """``name`` without control characters, its accents composed (NFC), its spaces one
    between words (two show as one), not yet cut to ``MAX_NAME``."""
    name = "".join(c for c in name if unicodedata.category(c) != "Cc")
    return " ".join(unicodedata.normalize("NFC", name).split())


def name_key(name: str) -> str:
    """What two names at one table are told apart by: names that read the same are
    the same name, whatever their case, however their accents are encoded (é as one
    character or as e and a combining accent), with or without invisible characters
    (a zero-width space)."""
    shown = "".join(c for c in name if unicodedata.category(c) != "Cf" and c not in _UNSEEN)
    return " ".join(unicodedata.normalize("NFKC", shown).casefold().split())


def same_name(name: str, other: str) -> bool:
    """Whether two players would be taken for one: their names are the same
    (``name_key``), or look the same, a Cyrillic or Greek letter in the one where the other
    has the Latin letter it looks like ('\u0410lice' with a Cyrillic \u0410 is Alice).

    Two keys, not one: 'ВОВА' and 'вова' are one name by their case, 'ВОВА' and 'Boba'
    by their looks, but 'вова' and 'Boba' are two (a small в is no b)."""
    return name_key(name) == name_key(other) or _read_as_latin(name) == _read_as_latin(other)


def _read_as_latin(name: str) -> str:
    # decomposed first: a Cyrillic ӧ is read as an о and its dots, as a Latin ö is
    return name_key(unicodedata.normalize("NFKD", name).translate(_LATIN_LOOKALIKES))


# The Cyrillic and Greek letters that Unicode's confusables (UTS #39) give as looking like a
# letter of the English alphabet, a capital as a capital and a small letter as a small one
# (Cyrillic і and Greek ι are i, their capitals I). Left out are those that would make two
# letters of one script one, so that names written in one script keep every difference their
# readers see: Cyrillic Ү ү (Kazakh), ҽ, һ, Ӏ ӏ ꙇ, Ь, ѡ beside У у, е, Н, І і, В, ԝ; Greek
# σ, γ, Ϻ beside ο, Υ, Μ. Nor is a Latin letter read as another ('rn' as 'm', 'l' as 'I', as
# the full skeleton of UTS #39 reads them): 'Arnie' and 'Amie' are two names at a table.
_LATIN_LOOKALIKES = str.maketrans(
    {
        **dict(zip("АВСЕԌНІЈКМОРЅТѴԜХУ", "ABCEGHIJKMOPSTVWXY", strict=True)),  # Cyrillic
        **dict(zip("асԁеіјорԛгѕѵԝху", "acdeijopqrsvwxy", strict=True)),
        **dict(zip("ΑΒϹΕϜΗΙͿΚΜΝΟΡΤΥΧΖ", "ABCEFHIJKMNOPTYXZ", strict=True)),  # Greek
        **dict(zip("αϲιϳορυν", "acijopuv", strict=True)),
    }
)


# characters that show nothing though Unicode does not class them as format characters:
# the combining grapheme joiner, the variation selectors, the Hangul fillers
_UNSEEN = frozenset(
    ["\u034f", "\u115f", "\u1160", "\u3164", "\uffa0"]
    + [chr(c) for c in range(0xFE00, 0xFE10)]
    + [chr(c) for c in range(0xE0100, 0xE01F0)]
)
