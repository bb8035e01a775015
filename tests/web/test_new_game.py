from __future__ import annotations

import itertools
import re
import unicodedata

import pytest
from django.test import Client
from django.utils import translation

from games.models import Game, Seat
from games.names import name_key, name_too_long, same_name, seat_name, tidy_name
from tests.conftest import create_game, unisolated


def test_the_home_page_offers_a_new_game_form(alice: Client) -> None:
    page = alice.get("/").content.decode()

    assert '<label for="id_name">Your name' in page
    assert '<label for="id_ruleset">Rules' in page
    assert "Create game</button>" in page
    for option in ("Forced order", "Declared target", "Upper section only", "Teams"):
        assert option in page


def test_every_fields_help_is_read_out_with_it(alice: Client) -> None:
    page = alice.get("/").content.decode()

    described = re.findall(r'aria-describedby="([^"]+)"', page)
    assert described  # Django points a field at its help text by this id
    for ids in described:
        for help_id in ids.split():
            assert f'id="{help_id}"' in page, f"{help_id} names nothing on the page"


def test_a_hot_seat_table_starts_at_once(alice: Client) -> None:
    game = create_game(alice, players="Bob\nCarol")

    assert game.status == Game.Status.PLAYING
    assert [s.name for s in game.seats.all()] == ["Alice", "Bob", "Carol"]
    assert alice.get(f"/g/{game.code}/").status_code == 200


def test_a_table_with_invitations_waits_in_the_lobby(alice: Client) -> None:
    response = alice.post(
        "/games/new/",
        {"name": "Alice", "ruleset": "yatzy", "invites": "2", "teams": "0", "upper_bonus": "50"},
    )

    game = Game.objects.get()
    assert response["Location"] == f"/g/{game.code}/lobby/"
    assert game.status == Game.Status.LOBBY
    assert game.seats.filter(kind=Seat.Kind.REMOTE, claimed_at__isnull=True).count() == 2


def test_options_reach_the_engine(alice: Client) -> None:
    game = create_game(
        alice, ruleset="maxi_yatzy", forced_order="on", upper_only="on", auto_first_roll="on"
    )

    state = game.engine_state()
    assert state.dice_count == 6
    assert state.options.forced_order and state.options.upper_only
    assert state.roll_number == 1  # rolled automatically
    assert state.category_keys == ("ones", "twos", "threes", "fours", "fives", "sixes")


def test_teams_share_a_scorecard(alice: Client) -> None:
    game = create_game(alice, players="Bob\nCarol\nDave", teams="2")

    assert game.engine_state().scorecards[0].players == (0, 2)
    assert game.engine_state().scorecards[1].players == (1, 3)


def test_it_refuses_forced_order_with_a_declared_target(alice: Client) -> None:
    response = alice.post("/games/new/", {**_form(), "forced_order": "on", "declared_target": "on"})

    assert response.status_code == 400
    assert "cannot be combined with a declared target" in response.content.decode()
    assert not Game.objects.exists()


def test_it_asks_for_a_name(alice: Client) -> None:
    response = alice.post("/games/new/", {**_form(), "name": ""})

    assert response.status_code == 400
    assert "This field is required." in response.content.decode()


def test_a_name_of_nothing_visible_is_asked_for_again(alice: Client) -> None:
    # Control characters are taken out of names, a zero-width space shows nothing.
    for name in ("\x01", "\u200b ", " \x02\u200b"):
        response = alice.post("/games/new/", {**_form(), "name": name})

        assert response.status_code == 400
        assert "Please tell the table your name." in response.content.decode()
    assert not Game.objects.exists()


def test_lines_of_nothing_visible_seat_no_one(alice: Client) -> None:
    game = create_game(alice, players="\x02\nBob\n\u200b")

    assert [s.name for s in game.seats.all()] == ["Alice", "Bob"]


def test_two_players_of_one_name_are_refused(alice: Client) -> None:
    response = alice.post("/games/new/", {**_form(), "name": "Alice", "players": "Bob\nALICE"})

    assert response.status_code == 400
    assert "Two players cannot both be called ALICE: no one could tell them apart." in (
        unisolated(response.content.decode())
    )
    assert not Game.objects.exists()


def test_a_refusal_isolates_the_name_it_repeats(alice: Client) -> None:
    """A refusal says the name back in a sentence: a right-to-left name in it would take
    the words after it along (the colon, "no one could ..."), so it is isolated (FSI ...
    PDI: the message is escaped whole, see games.bidi)."""
    twice = alice.post("/games/new/", {**_form(), "players": "محمد\nمحمد"})
    too_long = alice.post("/games/new/", {**_form(), "players": "م" * 41})

    assert "called ⁨محمد⁩: no one" in twice.content.decode()
    assert f"characters: ⁨{'م' * 41}⁩ has 41." in too_long.content.decode()


def test_names_that_read_the_same_are_one_name(alice: Client) -> None:
    # an accent as one character or as e and a combining accent; a zero-width space
    for host, other in (
        ("Jos\u00e9", "Jose\u0301"),
        ("Ann", "Ann\u200b"),
        ("Ann", "\uff21nn"),
        ("Anna Maria", "Anna  Maria"),  # two spaces show as one
        ("Ann", "A\u034fnn"),  # a combining grapheme joiner shows nothing
    ):
        response = alice.post("/games/new/", {**_form(), "name": host, "players": f"Bob\n{other}"})

        assert response.status_code == 400, (host, other)
        assert "no one could tell them apart" in response.content.decode()
    assert not Game.objects.exists()


def test_names_that_look_the_same_in_another_script_are_one_name(alice: Client) -> None:
    # a Cyrillic or Greek letter where the other name has the Latin letter it looks like
    for host, other in (
        ("Alice", "\u0410lice"),  # a Cyrillic capital A
        ("Alice", "\u0391lice"),  # a Greek capital Alpha
        ("Anna", "\u0430nn\u0430"),  # Cyrillic small a, in another case
        ("Bob", "\u0412\u043eb"),  # a Cyrillic Ve, which looks as B only as a capital
        ("Nora", "\u039dora"),  # a Greek Nu
        ("J\u00f6rg", "J\u04e7rg"),  # a Cyrillic o with its two dots
        ("\u041a\u0438\u0440\u0430", "K\u0438\u0440\u0430"),  # Kira in Cyrillic, its K Latin
    ):
        response = alice.post("/games/new/", {**_form(), "name": host, "players": f"Cy\n{other}"})

        assert response.status_code == 400, (host, other)
        assert f"Two players cannot both be called {other}: no one could tell them apart." in (
            unisolated(response.content.decode())
        )
    assert not Game.objects.exists()


def test_names_that_readers_tell_apart_stay_two(alice: Client) -> None:
    for host, other in (
        ("Aino", "\u00c4ino"),  # A and A with its dots: two Finnish names
        ("Arnie", "Amie"),  # r and n beside each other are not an m here
        ("\u0412\u043e\u0432\u0430", "Boba"),  # a small Cyrillic ve is no b
        ("\u0410\u043b\u0451\u043d\u0430", "\u0410\u043b\u0435\u043d\u0430"),  # Alyona, Alena
        ("\u03a3\u03bf\u03c6\u03af\u03b1", "Sofia"),  # Sofia in Greek and in Latin
    ):
        game = create_game(alice, name=host, players=other)

        assert [seat.name for seat in game.seats.all()] == [host, other]


def test_no_two_letters_of_one_script_are_made_one() -> None:
    # Only a letter of another script is read as the Latin letter it looks like: in
    # Greek or in Cyrillic, two letters are one name only where they were before (a
    # capital and its small letter), as the Kazakh u and straight u are two.
    for block in (range(0x0370, 0x0400), range(0x0400, 0x0530)):
        letters = [chr(c) for c in block if unicodedata.category(chr(c)).startswith("L")]
        for a, b in itertools.combinations(letters, 2):
            assert same_name(a, b) == (name_key(a) == name_key(b)), (a, b)


def test_invisible_characters_are_taken_out_of_a_name() -> None:
    # a zero-width space, a word joiner, a byte order mark, a left-to-right mark, a
    # soft hyphen, a Hangul filler: they showed nothing, and made Bob another name
    for invisible in ("\u200b", "\u2060", "\ufeff", "\u200e", "\u00ad", "\u3164"):
        assert tidy_name(f"B{invisible}ob{invisible}") == "Bob", repr(invisible)
        assert seat_name(f"{invisible}Bob") == "Bob", repr(invisible)
    assert seat_name("\u3164") == ""  # a Hangul filler is a letter that shows nothing


def test_invisible_characters_count_nothing_towards_a_names_length() -> None:
    assert name_too_long("Bob" + "\u200b" * 40) == ""
    assert name_too_long("Bob" + "\u2060\ufeff" * 20) == ""


def test_bidi_controls_are_taken_out_of_a_name() -> None:
    # a right-to-left override showed 'ecilA' as Alice, and turned the text after the
    # name around on the page
    assert tidy_name("\u202eecilA") == "ecilA"
    assert not same_name(tidy_name("\u202eecilA"), "Alice")
    for control in [*"\u202a\u202b\u202c\u202d\u202e", *"\u2066\u2067\u2068\u2069"]:
        assert tidy_name(f"Al{control}ice{control}") == "Alice", repr(control)


def test_joiners_and_selectors_that_make_an_emoji_stay_in_a_name() -> None:
    for emoji in (
        "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466",  # a family
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # the rainbow flag
        "\u2764\ufe0f\u200d\U0001f525",  # a heart on fire
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
        "1\ufe0f\u20e3",  # the keycap 1
    ):
        assert tidy_name(f"Bob {emoji}") == f"Bob {emoji}", repr(emoji)


def test_joiners_that_shape_letters_stay_in_a_name() -> None:
    for name in (
        "\u0645\u062d\u0645\u062f\u200c\u0631\u0636\u0627",  # Persian, a non-joiner
        "\u0dc1\u0dca\u200d\u0dbb\u0dd3",  # Sri in Sinhala, its r joined
        "\u845b\U000e0100",  # a kanji in one of its forms (an ideographic variant)
    ):
        assert tidy_name(name) == name, repr(name)


def test_joiners_and_selectors_that_shape_nothing_go() -> None:
    for name, shown in (
        ("B\u200dob", "Bob"),  # no emoji and no letters that join
        ("B\u200cob", "Bob"),
        ("Bob\ufe0f", "Bob"),  # a Latin letter has no variants to select
        ("Bob\U000e0067", "Bob"),  # a tag after no flag
        ("\U0001f468\u200d Bob", "\U0001f468 Bob"),  # a joiner with nothing to join to
    ):
        assert tidy_name(name) == shown, repr(name)


@translation.override("en")  # a page read in Finnish leaves Finnish active
def test_a_name_of_accents_piled_on_letters_is_refused() -> None:
    # one character as it shows, more code points than a seat keeps
    piled = "Bo" + "b" + "\u0301" * 400

    assert unisolated(name_too_long(piled)) == (
        f"{tidy_name(piled)} has more accents and joined symbols than a name can hold."
    )


def test_a_player_is_not_named_as_a_computer_player_is(alice: Client) -> None:
    response = alice.post(
        "/games/new/", {**_form(), "players": "Computer 2 (Good)", "bots": "2", "bot_level": "good"}
    )

    assert response.status_code == 400
    assert "Two players cannot both be called Computer 2 (Good)" in unisolated(
        response.content.decode()
    )
    assert not Game.objects.exists()


def test_a_hosts_name_is_joined_without_invisible_characters(alice: Client) -> None:
    game = create_game(alice, name="Bob" + "\u200b" * 40, players="\u202eecilA")

    assert [seat.name for seat in game.seats.all()] == ["Bob", "ecilA"]


def test_a_name_too_long_is_refused_not_cut(alice: Client) -> None:
    # cut at 40, the two names were one, and the refusal named neither as typed
    players = "B" * 40 + "x\n" + "B" * 40 + "y"

    response = alice.post("/games/new/", {**_form(), "players": players})

    assert response.status_code == 400
    page = unisolated(response.content.decode())
    assert f"A name has at most 40 characters: {'B' * 40}x has 41." in page
    assert not Game.objects.exists()


def test_a_name_a_little_too_long_is_said_whole_and_a_paste_by_its_start(
    alice: Client,
) -> None:
    players = "C" * 80 + "\n" + "D" * 5_000

    page = unisolated(alice.post("/games/new/", {**_form(), "players": players}).content.decode())
    assert f"A name has at most 40 characters: {'C' * 80} has 80." in page
    page = alice.post("/games/new/", {**_form(), "players": "D" * 5_000}).content.decode()
    page = unisolated(page)
    assert f"A name has at most 40 characters: {'D' * 40}\u2026 has 5000." in page


def test_a_name_is_as_long_as_it_shows(alice: Client) -> None:
    # 40 letters, each e with its accent typed as two characters (as macOS may)
    game = create_game(alice, players="Rene\u0301" * 10)

    assert game.seats.get(position=1).name == "Ren\u00e9" * 10


def test_the_hosts_name_is_as_long_as_it_shows(alice: Client) -> None:
    # Django's max_length counted the 50 characters typed and refused the 40 letters shown
    game = create_game(alice, name="Rene\u0301" * 10)

    assert game.seats.get(position=0).name == "Ren\u00e9" * 10


def test_a_hosts_name_too_long_is_refused_as_any_other(alice: Client) -> None:
    response = alice.post("/games/new/", {**_form(), "name": "A" * 40 + "\u0301b"})

    assert response.status_code == 400
    page = unisolated(response.content.decode())
    assert f"A name has at most 40 characters: {'A' * 39}\u00c1b has 41." in page
    assert not Game.objects.exists()


def test_the_name_fields_say_their_limits_to_the_browser(alice: Client) -> None:
    # maxlength (UTF-16 code units) where no script counts, as many as cut no name a seat
    # keeps; data-max-characters, the characters as they show, for names.js (issue 46)
    page = alice.get("/").content.decode()

    assert re.search(r'<input type="text" name="name" [^>]*maxlength="800"', page)
    assert re.search(r'<input type="text" name="name" [^>]*data-max-characters="40"', page)
    assert re.search(r'<textarea name="players" [^>]*data-max-characters="40"', page)
    assert "js/names.js" in page


@pytest.mark.parametrize("name", ["N" * 500, "😀" * 401])
def test_a_name_longer_than_any_field_takes_is_refused_with_a_form_error(
    alice: Client, name: str
) -> None:
    # posted past the browser's field: refused as the field's error, never a 500
    response = alice.post("/games/new/", {**_form(), "name": name})

    assert response.status_code == 400
    page = response.content.decode()
    assert "A name has at most 40 characters: " in page
    assert re.search(r'<input type="text" name="name" [^>]*aria-invalid="true"', page)
    assert not Game.objects.exists()


def test_a_name_field_takes_the_direction_of_what_is_typed_in_it(
    alice: Client, bob: Client
) -> None:
    # a right-to-left name typed into a left-to-right field shows its letters in order
    # but its cursor and its punctuation at the wrong end
    game = create_game(alice, invites="1")
    new_game = alice.get("/").content.decode()
    join = bob.get(f"/g/{game.code}/join/").content.decode()

    assert re.search(r'<input type="text" name="name" [^>]*dir="auto"', new_game)
    assert re.search(r'<textarea name="players" [^>]*dir="auto"', new_game)
    assert re.search(r'<input id="join-name" [^>]*dir="auto"', join)


def test_a_malformed_form_is_answered_not_crashed(alice: Client) -> None:
    response = alice.post("/games/new/", {"name": "A", "ruleset": "chess", "invites": "x"})

    assert response.status_code == 400
    assert not Game.objects.exists()


def _form() -> dict[str, str]:
    return {"name": "Alice", "ruleset": "yatzy", "invites": "0", "teams": "0", "upper_bonus": "50"}


def test_a_checkboxs_label_after_it_ends_without_a_colon(alice: Client) -> None:
    page = alice.get("/").content.decode()

    assert '<label for="id_coach">Coach</label>' in page
    assert '<label for="id_public">Show the finished game in the public history</label>' in page
    assert '<label for="id_name">Your name:</label>' in page  # a label before its field
