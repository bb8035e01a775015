"""How a name is measured and cut: in the characters a reader sees (``names.characters``,
Unicode's extended grapheme clusters), never in code points."""

from __future__ import annotations

from django.test import Client
from django.utils import translation

from games.names import characters, name_too_long, seat_name, tidy_name
from tests.conftest import create_game

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # 7 code points


@translation.override("en")  # a page read in Finnish leaves Finnish active
def test_a_character_as_it_shows_counts_as_one() -> None:
    for character in (
        FAMILY,
        "\U0001f1eb\U0001f1ee",  # the flag of Finland, two regional indicators
        "\U0001f44d\U0001f3fd",  # a thumbs up with its skin tone
        "q\u0307",  # a q with a combining dot, which has no character of its own
        "\u0915\u094d\u0937",  # the Devanagari conjunct kssa, two consonants and a virama
        "\u2764\ufe0f",  # a heart asked for as an emoji
        "\U0001f3f4\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f",  # Wales
        "\U0001f469\U0001f3fb\u200d\u2764\ufe0f\u200d\U0001f48b\u200d\U0001f468\U0001f3fc",
    ):
        assert characters(character) == [character], repr(character)
        assert name_too_long(character * 40) == "", repr(character)
        assert name_too_long(character * 41).endswith(" has 41."), repr(character)


def test_characters_side_by_side_stay_apart() -> None:
    flags = "\U0001f1eb\U0001f1ee\U0001f1f8\U0001f1ea\U0001f1f3"  # Finland, Sweden, an N
    assert characters(flags) == ["\U0001f1eb\U0001f1ee", "\U0001f1f8\U0001f1ea", "\U0001f1f3"]
    assert characters("\U0001f600\U0001f600") == ["\U0001f600", "\U0001f600"]
    assert characters("Bo b") == ["B", "o", " ", "b"]


def test_a_name_is_cut_between_its_characters_never_in_one() -> None:
    assert seat_name(FAMILY * 41) == FAMILY * 40
    assert seat_name("\U0001f1eb\U0001f1ee" * 41) == "\U0001f1eb\U0001f1ee" * 40
    assert seat_name("A" * 39 + FAMILY) == "A" * 39 + FAMILY


HALFWIDTH_GA = "\uff76\uff9e"  # katakana ga as a half-width ka and its voiced mark


@translation.override("en")  # a page read in Finnish leaves Finnish active
def test_a_character_the_old_approximation_split_counts_as_one() -> None:
    for character in (
        "\u1100\u119e",  # an old Hangul syllable, two jamo that NFC composes into none
        "\uac00\u11c3",  # a Hangul syllable and an old final consonant after it
        HALFWIDTH_GA,
        "\u0d4e\u0d15",  # Malayalam ka with the dot reph written before it (a Prepend)
        "\U0001f642\u200d\u2194\ufe0f",  # head shaking sideways: an emoji, a joiner, an arrow
    ):
        assert tidy_name(character) == character, repr(character)
        assert characters(character) == [character], repr(character)
        assert name_too_long(character * 40) == "", repr(character)
        assert name_too_long(character * 41).endswith(" has 41."), repr(character)


def test_what_shows_as_two_characters_counts_as_two() -> None:
    # a virama before a vowel letter joins no conjunct: it shows, and the vowel beside it
    assert characters("\u0915\u094d\u0905") == ["\u0915\u094d", "\u0905"]
    # two stars are no emoji: a joiner between them joins nothing, and goes
    assert tidy_name("\u2605\u200d\u2605") == "\u2605\u2605"
    assert characters(tidy_name("\u2605\u200d\u2605")) == ["\u2605", "\u2605"]


def test_a_line_break_typed_on_windows_is_one_character() -> None:
    # never in a name (tidy_name takes control characters out), but one all the same
    assert characters("Bob\r\n") == ["B", "o", "b", "\r\n"]


def test_a_name_is_not_cut_between_a_letter_and_its_voiced_mark() -> None:
    assert seat_name("A" * 39 + HALFWIDTH_GA) == "A" * 39 + HALFWIDTH_GA
    assert seat_name(HALFWIDTH_GA * 41) == HALFWIDTH_GA * 40


def test_a_name_in_half_width_katakana_is_as_long_as_it_shows(alice: Client) -> None:
    gaku = HALFWIDTH_GA + "\uff78"  # Gaku: ga and ku, three code points
    game = create_game(alice, players=gaku * 20)

    assert game.seats.get(position=1).name == gaku * 20
