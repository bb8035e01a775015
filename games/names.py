"""Players' names: how one is tidied, measured, cut and told apart from another.

Pure text: the services refuse or take a name by these, the models keep its key."""

from __future__ import annotations

import unicodedata

import regex
from django.utils.translation import gettext

from games.bidi import isolated_text

MAX_NAME = 40  # characters as a reader sees them (``characters``)
# The code points a name may have: ten for each of its characters, as many as the longest
# emoji has (a kiss of two with their skin tones, 👩🏻‍❤️‍💋‍👨🏼). Only accents piled on letters
# take more; their name is refused, not stored (``Seat.name``'s length).
MAX_NAME_CODE_POINTS = 10 * MAX_NAME
# A browser's maxlength counts UTF-16 code units, at most two for a code point: a name field
# that takes this many cuts no name a seat would take. It only keeps a pasted page out of a
# field without a script; names.js takes it off and keeps the field to MAX_NAME characters
# as they show, counted as here (issue 46). The server measures names (``name_too_long``).
MAX_NAME_TYPED = 2 * MAX_NAME_CODE_POINTS
FIELD_LIMITS = {"typed": MAX_NAME_TYPED, "characters": MAX_NAME}


def seat_name(name: str) -> str:
    """A name as the table shows it: no control characters (PostgreSQL stores no NUL,
    and none shows), no spaces around it, at most ``MAX_NAME`` characters long, cut
    between two characters, never in one (an emoji or a letter with its accent); empty if
    nothing of it would show (spaces and invisible characters only, as a zero-width space)."""
    shown = characters(tidy_name(name))[:MAX_NAME]
    while sum(map(len, shown)) > MAX_NAME_CODE_POINTS:
        shown.pop()
    name = "".join(shown)
    return name if any(unicodedata.category(c)[0] in "LNPS" for c in name) else ""


def name_too_long(name: str) -> str:
    """Why ``name`` cannot be a player's name: it is longer than ``MAX_NAME`` characters
    as it shows (``tidy_name``, ``characters``), or has more code points than a seat
    keeps; empty if it is not. A name is refused, not cut: cut, it is not the name typed,
    and may be another player's."""
    shown = tidy_name(name)
    seen = characters(shown)
    # a name a little too long is shown whole, to be cut where its player likes; a paste
    # of thousands of characters by its start, which says which name it is
    echoed = shown if len(seen) <= 2 * MAX_NAME else "".join(seen[:MAX_NAME]) + "…"
    if len(seen) > MAX_NAME:
        message = gettext("A name has at most %(max)s characters: %(name)s has %(length)s.")
        return message % {"max": MAX_NAME, "name": isolated_text(echoed), "length": len(seen)}
    if len(shown) > MAX_NAME_CODE_POINTS:
        message = gettext("%(name)s has more accents and joined symbols than a name can hold.")
        return message % {"name": isolated_text(echoed)}
    return ""


def characters(name: str) -> list[str]:
    """``name`` cut into the characters a reader sees in it, each counted as one: Unicode's
    extended grapheme clusters (UAX #29, as the ``regex`` module's ``\\X`` finds them). A
    letter with its combining accents, an Indic conjunct (क्ष), a Hangul syllable of its
    jamo (ᄀᆞ), an emoji with its skin tone and variation selector and the emoji joined to
    it (a family of four), a flag (two regional indicators, or a black flag and its tags)
    are each one character."""
    return _CHARACTER.findall(name)


def tidy_name(name: str) -> str:
    """``name`` as it shows, not yet cut to ``MAX_NAME``: its accents composed (NFC), its
    spaces one between words (two show as one), and without what shows nothing where it
    stands: control characters, fillers, and format characters (a zero-width space, the
    bidi controls, which would turn the text around it on the page), but for those that
    make an emoji or shape letters (``_shows_here``)."""
    name = "".join(c for c in name if not _invisible(c))
    name = unicodedata.normalize("NFC", name)
    kept: list[str] = []
    for at, c in enumerate(name):
        if not _contextual(c) or _shows_here(c, kept, name[at + 1 : at + 2] or " "):
            kept.append(c)
    return " ".join("".join(kept).split())


def name_key(name: str) -> str:
    """What two names at one table are told apart by: names that read the same are
    the same name, whatever their case, however their accents are encoded (é as one
    character or as e and a combining accent), with or without invisible characters
    (a zero-width space)."""
    unseen = (c for c in name if unicodedata.category(c) == "Cf" or c in _FILLERS or _selector(c))
    shown = name.translate(dict.fromkeys(map(ord, unseen)))
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


_CHARACTER = regex.compile(r"\X")
# what belongs to the character before it: a combining mark (a variation selector too), a
# vowel sign, a joiner, an emoji's skin tone, a tag
_extends = regex.compile(
    r"[\p{Grapheme_Cluster_Break=Extend}\p{Grapheme_Cluster_Break=SpacingMark}\u200d]"
).match
# the symbols an emoji is made of (not the regional indicators nor the skin tones, parts of
# emoji); unassigned code points of the emoji blocks too, to be the emoji of a newer Unicode
_pictographic = regex.compile(r"\p{Extended_Pictographic}").match
_alphabetic = regex.compile(r"[\p{L}&&[\p{Latin}\p{Greek}\p{Cyrillic}]]", regex.V1).match

_ZWNJ, _ZWJ = "\u200c", "\u200d"
_BLACK_FLAG = "\U0001f3f4"
_CANCEL_TAG = "\U000e007f"
# characters that show nothing though Unicode does not class them as format characters:
# the combining grapheme joiner, the Hangul fillers
_FILLERS = frozenset(["\u034f", "\u115f", "\u1160", "\u3164", "\uffa0"])


def _invisible(c: str) -> bool:
    """Whether ``c`` shows nothing wherever it stands (those that may show, as part of an
    emoji or of the letters around them, are ``_contextual``)."""
    category = unicodedata.category(c)
    if category == "Cf":
        return c not in (_ZWNJ, _ZWJ) and not _tag(c)
    return category == "Cc" or c in _FILLERS


def _contextual(c: str) -> bool:
    return c in (_ZWNJ, _ZWJ) or _tag(c) or _selector(c)


def _shows_here(c: str, before: list[str], after: str) -> bool:
    """Whether the joiner, tag or variation selector ``c``, after the characters
    ``before`` and before ``after``, changes what shows.

    A zero-width joiner makes one emoji of two (a family of its people: 👨‍👩‍👧); tags
    after a black flag make it a country's (🏴󠁧󠁢󠁳󠁣󠁴󠁿); a variation selector after a symbol
    or an emoji asks for it as an emoji or as text (❤️), after an ideograph for one of its
    forms. Between two letters of the scripts whose letters join or form conjuncts
    (Arabic to Sinhala, Khmer, Mongolian), the joiners choose the letters' shapes (the
    non-joiner in Persian names, ශ්‍රී in Sinhala). Anywhere else, nothing of them shows.
    A selector after a letter of the Latin, Greek or Cyrillic alphabets selects nothing."""
    last = before[-1] if before else " "
    base = next((b for b in reversed(before) if not _extends(b)), " ")
    if c == _ZWJ and last != _ZWJ and _pictographic(base) and _pictographic(after):
        return True
    if c in (_ZWNJ, _ZWJ):
        return (
            _joined_script(base)
            and unicodedata.category(last)[0] in "LM"
            and unicodedata.category(after)[0] == "L"
        )
    if _tag(c):
        return base == _BLACK_FLAG and (last == base or (_tag(last) and last != _CANCEL_TAG))
    return last == base and not base.isspace() and not _alphabetic(base)


def _tag(c: str) -> bool:
    return 0xE0020 <= ord(c) <= 0xE007F


def _selector(c: str) -> bool:
    return 0xFE00 <= ord(c) <= 0xFE0F or 0xE0100 <= ord(c) <= 0xE01EF


def _joined_script(c: str) -> bool:
    return 0x0600 <= ord(c) <= 0x0DFF or 0x1780 <= ord(c) <= 0x18AF
