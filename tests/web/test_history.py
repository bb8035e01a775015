"""Finished games: the history, the review and playing again."""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.test import Client

from games.models import Game, GameEvent, Seat
from tests.conftest import create_game, fresh, play_to_the_end, script_dice, unisolated, version
from tests.seen import seen

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def finished(alice: Client, dice: object) -> Game:
    return play_to_the_end(alice, create_game(alice, players="Bob", upper_only="on"))


def test_a_finished_game_shows_the_ranking_and_play_again(alice: Client, finished: Game) -> None:
    page = alice.get(f"/g/{finished.code}/").content.decode()

    (_rank, _index, total), *_ = finished.engine_state().ranking()
    assert "Final ranking" in page
    assert f"wins with {total} points" in page
    assert "Play again</button>" in page


def test_a_solo_game_ends_with_its_score_and_names_no_winner(alice: Client, dice: object) -> None:
    """Issue 46: a solo daily game ended "Dave wins", with nobody to beat."""
    game = play_to_the_end(alice, create_game(alice, upper_only="on"))

    page = unisolated(alice.get(f"/g/{game.code}/").content.decode())

    total = game.engine_state().ranking()[0][2]
    assert f"Game over: Alice scored {total} points." in page
    assert "wins" not in page
    assert '<span class="badge">Winner</span>' not in page


class _AllOnes:
    def face(self, turn: int, roll_number: int, position: int) -> int:
        return 1


def test_a_tie_is_told_as_a_shared_first_place(
    alice: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    script_dice(monkeypatch, _AllOnes())  # both play the same game
    game = play_to_the_end(alice, create_game(alice, players="Bob", upper_only="on"))

    page = unisolated(alice.get(f"/g/{game.code}/").content.decode())

    total = game.engine_state().ranking()[0][2]
    assert [rank for rank, _, _ in game.engine_state().ranking()] == [1, 1]
    assert f"Game over: Alice and Bob share first place with {total} points." in page
    assert "wins with" not in page


def test_a_winning_team_is_told_as_its_players(alice: Client, dice: object) -> None:
    game = create_game(alice, players="Bob\nCarol\nDave", teams="2", upper_only="on")
    game = play_to_the_end(alice, game)

    page = alice.get(f"/g/{game.code}/").content.decode()

    (_rank, index, total), (second, *_) = game.engine_state().ranking()
    assert second == 2  # one team first
    names = " &amp; ".join(  # each of the team isolated (games.bidi)
        f"<bdi>{('Alice', 'Bob', 'Carol', 'Dave')[p]}</bdi>"
        for p in game.engine_state().scorecards[index].players
    )
    assert f"Game over: {names} win with {total} points." in page
    assert "wins with" not in page


def test_a_spectator_is_offered_the_review_but_not_to_play_again(
    alice: Client, spectator: Client, finished: Game
) -> None:
    # The players' table is rendered first: the spectator's is not that one again.
    assert "Play again</button>" in seen(alice.get(f"/g/{finished.code}/").content.decode())

    page = seen(spectator.get(f"/g/{finished.code}/").content.decode())

    assert "Final ranking" in page and "Review the game</a>" in page
    assert "Play again" not in page  # only the players may start the next game


def test_my_games_lists_the_games_this_browser_played(
    alice: Client, bob: Client, finished: Game
) -> None:
    mine = alice.get("/history/").content.decode()
    theirs = bob.get("/history/").content.decode()

    assert f"/g/{finished.code}/review/" in mine
    assert f"/g/{finished.code}/review/" not in theirs
    assert "No finished games of yours yet." in theirs


def test_public_games_are_listed_for_everyone_and_private_ones_are_not(
    alice: Client, bob: Client, dice: object
) -> None:
    public = play_to_the_end(alice, create_game(alice, upper_only="on"))
    private = play_to_the_end(alice, create_game(alice, upper_only="on", public=""))

    page = bob.get("/history/?tab=public").content.decode()

    assert f"/g/{public.code}/review/" in page
    assert f"/g/{private.code}/review/" not in page
    assert bob.get(f"/g/{private.code}/review/").status_code == 200  # reachable by its link


def test_the_history_filters_by_rules_and_player(alice: Client, dice: object) -> None:
    yatzy = play_to_the_end(alice, create_game(alice, upper_only="on", players="Bob"))
    maxi = play_to_the_end(alice, create_game(alice, upper_only="on", ruleset="maxi_yatzy"))

    by_rules = alice.get("/history/?rules=maxi_yatzy").content.decode()
    by_player = alice.get("/history/?player=bob").content.decode()

    assert maxi.code in by_rules and yatzy.code not in by_rules
    assert yatzy.code in by_player and maxi.code not in by_player


def test_the_history_finds_a_computer_player_by_the_name_its_reader_sees(
    alice: Client, bob: Client, dice: object
) -> None:
    """The site names its computer players in each reader's language, but the filter
    searched the name stored in the creator's: a Finnish reader who saw 'Tietokone 1
    (Hyvä)' in an English host's game found nothing under 'Tietokone'."""
    bob.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    english = play_to_the_end(alice, create_game(alice, bots="1", bot_level="good"))
    finnish = play_to_the_end(bob, create_game(bob, bots="2", bot_level="beginner"))

    def found(client: Client, player: str) -> set[str]:
        page = client.get("/history/", {"tab": "public", "player": player}).content.decode()
        return {game.code for game in (english, finnish) if game.code in page}

    assert found(bob, "Tietokone 1 (Hyvä)") == {english.code}
    assert found(bob, "tietokone 2") == {finnish.code}
    assert found(bob, "HYVÄ") == {english.code}
    assert found(bob, "hyva\u0308") == {english.code}  # its dots typed apart from its a
    assert found(alice, "Computer 2 (Beginner)") == {finnish.code}
    assert found(alice, "Tietokone") == {finnish.code}  # as stored, still
    assert found(alice, "Computer 3") == set()


def test_the_history_finds_a_player_whatever_the_case_of_their_accented_letters(
    alice: Client, dice: object
) -> None:
    """SQLite, the site's own database, searched with LIKE, which ignores the case of
    ASCII letters only: 'äino' did not find Äino, nor 'ÖRJAN' Örjan."""
    aino = play_to_the_end(alice, create_game(alice, players="Äino", upper_only="on"))
    orjan = play_to_the_end(alice, create_game(alice, players="Örjan", upper_only="on"))

    assert found_in_history(alice, "äino", aino, orjan) == {aino.code}
    assert found_in_history(alice, "ÖRJAN", aino, orjan) == {orjan.code}
    assert found_in_history(alice, "rJA", aino, orjan) == {orjan.code}
    assert found_in_history(alice, "alice", aino, orjan) == {aino.code, orjan.code}


def test_the_history_finds_a_name_as_the_table_compares_names(alice: Client, dice: object) -> None:
    """At a table, names that read the same are one name (``names.name_key``): an
    é as one character or as e and a combining accent, a ß or ss, letters of full
    width. The search compared them as typed, on PostgreSQL as on SQLite."""
    elodie = play_to_the_end(alice, create_game(alice, players="Élodie", upper_only="on"))
    strauss = play_to_the_end(alice, create_game(alice, players="Strauß", upper_only="on"))

    assert found_in_history(alice, "E\u0301lodie", elodie, strauss) == {elodie.code}
    assert found_in_history(alice, "STRAUSS", elodie, strauss) == {strauss.code}
    assert found_in_history(alice, "ｓｔｒａｕ", elodie, strauss) == {strauss.code}
    assert found_in_history(alice, "é\u200blodie", elodie, strauss) == {elodie.code}


def test_the_history_finds_a_friend_by_the_name_they_joined_with(
    alice: Client, bob: Client, dice: object
) -> None:
    game = create_game(alice, invites="1", upper_only="on")
    bob.post(f"/g/{game.code}/join/", {"name": "Örjan"})
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    play_to_the_end({0: alice, 1: bob}, game)

    assert found_in_history(alice, "örjan", game) == {game.code}
    assert found_in_history(bob, "ÖRJAN", game) == {game.code}


def test_the_migration_keys_the_names_of_the_seats_there_were(alice: Client, dice: object) -> None:
    """The seats of the games played before the search compared names by their key."""
    game = create_game(alice, players="ÖRJAN\nE\u0301lodie")
    Seat.objects.update(name_key="")  # as the migration found them
    migration = importlib.import_module("games.migrations.0007_seat_name_key")

    migration.fill_name_keys(apps, None)

    keys = game.seats.values_list("name_key", flat=True)
    assert list(keys) == ["alice", "örjan", "élodie"]


def found_in_history(client: Client, player: str, *games: Game) -> set[str]:
    """The codes of ``games`` that ``client``'s history lists when filtered by ``player``."""
    page = client.get("/history/", {"player": player}).content.decode()
    return {game.code for game in games if f"/g/{game.code}/review/" in page}


def test_the_review_steps_through_every_roll_and_score(alice: Client, finished: Game) -> None:
    steps = finished.events.filter(kind__in=["roll", "score"]).count()

    last = alice.get(f"/g/{finished.code}/review/").content.decode()
    first = unisolated(alice.get(f"/g/{finished.code}/review/?step=1", **HTMX).content.decode())

    assert f"Step {steps} of {steps}" in last
    assert "Step 1 of" in first and "Alice rolls" in first
    assert "scores" in last


def test_a_review_step_names_its_dice_and_which_are_held(alice: Client, dice: object) -> None:
    game = create_game(alice, players="Bob", upper_only="on")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)  # step 1
    alice.post(f"/g/{game.code}/hold/", {"version": version(game), "die": "2"}, **HTMX)  # 2
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)  # step 3
    play_to_the_end(alice, game)  # step 4 rolls again, step 5 scores those dice
    review = f"/g/{game.code}/review/"

    rolled = alice.get(review + "?step=3", **HTMX).content.decode()
    scored = alice.get(review + "?step=5", **HTMX).content.decode()

    shown = re.compile(r'<ul class="dice small" aria-label="Dice">(.*?)</ul>', re.S)
    named = re.compile(
        r'<li class="die( held)?"><span class="die-shown" role="img" aria-label="([^"]*)">'
    )
    dice = named.findall(shown.search(rolled).group(1))
    assert [(bool(h), said.endswith(", held")) for h, said in dice] == [(False, False)] * 2 + [
        (True, True)
    ] + [(False, False)] * 2
    # each die named by its face, shown with its pips as at the table
    faces = [int(re.search(r"\d", said).group()) for _h, said in dice]
    assert " ".join(map(str, faces)) in unisolated(rolled)  # "Alice rolls 4 4 1 4 6"
    pips = re.findall(r'<svg class="die-face".*?</svg>', shown.search(rolled).group(1))
    assert [pip.count("<circle") for pip in pips] == faces
    # a score step shows the dice that were scored (its next turn has none yet)
    assert "scores" in scored
    assert len(named.findall(shown.search(scored).group(1))) == 5


def test_a_review_step_is_a_page_of_its_own_when_history_goes_back_to_it(
    alice: Client, finished: Game
) -> None:
    url = f"/g/{finished.code}/review/?step=3"
    stepping = alice.get(url, **HTMX)
    restoring = alice.get(url, HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)

    assert "<html" not in stepping.content.decode()  # the stepper alone
    assert "<html" in restoring.content.decode() and 'id="stepper"' in restoring.content.decode()
    assert "HX-Request" in stepping["Vary"]  # not one for the other in the browser's cache


def test_the_history_names_the_options_a_game_was_played_with(
    alice: Client, finished: Game
) -> None:
    page = alice.get("/history/").content.decode()

    assert "Scandinavian Yatzy<br><small>Upper section only</small>" in page


def test_the_review_of_a_running_game_waits_for_the_end(alice: Client, dice: object) -> None:
    game = create_game(alice)

    response = alice.get(f"/g/{game.code}/review/")

    assert response.status_code == 409
    page = response.content.decode()
    assert "The review opens when the game is over." in page
    assert f'<a class="button primary" href="/g/{game.code}/">Back to the game</a>' in page


def test_play_again_starts_the_same_table_anew(alice: Client, finished: Game) -> None:
    response = alice.post(f"/g/{finished.code}/again/")

    following = fresh(finished).next_game
    assert response["Location"] == f"/g/{following.code}/"
    assert [s.name for s in following.seats.all()] == ["Alice", "Bob"]
    assert following.options == finished.options
    assert following.status == Game.Status.PLAYING
    assert alice.post(f"/g/{finished.code}/again/")["Location"] == f"/g/{following.code}/"


def test_a_move_at_the_next_game_claims_the_browsers_seats_there(
    alice: Client, finished: Game
) -> None:
    alice.post(f"/g/{finished.code}/again/")
    following = fresh(finished).next_game

    # straight to a move, without loading the new table first
    response = alice.post(
        f"/g/{following.code}/roll/", {"version": following.version}, HTTP_HX_REQUEST="true"
    )

    assert response.status_code == 200
    assert fresh(following).version == following.version + 1


def test_the_rules_package_imports_no_django() -> None:
    import subprocess
    import sys

    code = "import sys, games.rules; sys.exit(any(m.startswith('django') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_the_next_game_keeps_a_seat_for_the_device_its_player_went_on_with(
    alice: Client, bob: Client, dice: object
) -> None:
    # Bob joined on his laptop and went on on his phone, by his seat's personal link.
    game = create_game(alice, invites="1", upper_only="on")
    bob.post(f"/g/{game.code}/join/", {"name": "Bob"})
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    phone = Client()
    phone.post(f"/g/{game.code}/seat/{game.seats.get(name='Bob').token}/")
    play_to_the_end({0: alice, 1: phone}, game)

    following = phone.post(f"/g/{game.code}/again/")["Location"]
    phone.get(following)  # follows the old table there
    alice.post(f"{following}roll/", {"version": version(fresh(game).next_game)}, **HTMX)
    category = fresh(game).next_game.engine_state().open_categories()[0]
    data = {"version": version(fresh(game).next_game), "category": category, "confirm": "1"}
    alice.post(f"{following}score/", data, **HTMX)

    response = phone.post(f"{following}roll/", {"version": version(fresh(game).next_game)}, **HTMX)
    mine = phone.get("/history/").content.decode()
    assert f'href="/g/{game.code}/review/"' in mine  # its game, played by the seat's link

    assert response.status_code == 200, response.content.decode()[:300]
    assert fresh(game).next_game.engine_state().roll_number == 1


def test_a_player_finds_the_way_back_to_the_games_not_over(
    alice: Client, bob: Client, finished: Game
) -> None:
    """Nothing but the personal link led back to a game whose page was closed."""
    playing = create_game(alice, players="Carol")
    waiting = create_game(alice, invites="1")
    bob.post(f"/g/{waiting.code}/join/", {"name": "Bob"})

    for page in (alice.get("/"), alice.get("/history/")):
        page = unisolated(page.content.decode())
        assert "Your games in progress" in page
        links = re.findall(r'<li><a href="([^"]+)">([^<]+)</a>', page)
        assert links == [
            (f"/g/{waiting.code}/lobby/", "Scandinavian Yatzy: Alice, Bob"),
            (f"/g/{playing.code}/", "Scandinavian Yatzy: Alice, Carol"),
        ]  # the latest first, and not the finished game
    bobs = re.findall(r'<li><a href="([^"]+)">', bob.get("/").content.decode())
    assert bobs == [f"/g/{waiting.code}/lobby/"]
    assert "Your games in progress" not in Client().get("/").content.decode()
    assert "Your games in progress" not in alice.get("/history/?tab=public").content.decode()


def test_the_history_and_review_say_that_a_perfect_computer_player_played_as_good(
    alice: Client, dice: object, no_tables_built: None
) -> None:
    """Without its tables a Perfect computer player plays as Good; its game's history and
    review called it Perfect still, and a reader learned what Perfect would have lost."""
    game = play_to_the_end(alice, create_game(alice, bots="1", bot_level="perfect"))

    history = alice.get("/history/").content.decode()
    review = alice.get(f"/g/{game.code}/review/").content.decode()
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    in_finnish = alice.get(f"/g/{game.code}/review/").content.decode()

    assert "Computer 1 (Perfect, played as Good)" in history
    assert "Computer 1 (Perfect)" not in history
    assert "Computer 1 (Perfect, played as Good)" in review
    assert (
        "Computer 1 (Perfect) played as Good: its strategy tables were not ready when it played."
        in review
    )
    assert "Tietokone 1 (Täydellinen, pelasi Hyvän tasolla)" in in_finnish
    assert (
        "Tietokone 1 (Täydellinen) pelasi Hyvän tasolla: sen strategiataulukot eivät olleet"
        " valmiita sen pelatessa." in in_finnish
    )


def test_a_game_logged_before_the_level_played_was_shows_as_it_did(
    alice: Client, dice: object, no_tables_built: None
) -> None:
    game = play_to_the_end(alice, create_game(alice, bots="1", bot_level="perfect"))
    for event in GameEvent.objects.filter(game=game, data__has_key="played_as"):
        del event.data["played_as"]
        event.save()

    history = alice.get("/history/").content.decode()
    review = alice.get(f"/g/{game.code}/review/").content.decode()

    assert "Computer 1 (Perfect)" in history and "played as Good" not in history
    assert "Computer 1 (Perfect)" in review and "played as Good" not in review


def test_a_right_to_left_name_is_isolated_in_the_history_and_the_review(
    alice: Client, dice: object
) -> None:
    """On the public history "Mallory 22, Bob 35" showed as "53 boB ,22 yrollaM": the
    override (U+202E) of a name stored before names were cleaned of it ran on to the
    end of the row. Each name is in <bdi>, on the history and all through the review."""
    game = play_to_the_end(alice, create_game(alice, players="محمد", upper_only="on"))
    Seat.objects.filter(game=game, name="Alice").update(name="\u202eMallory")
    mallory, arabic = "<bdi>\u202eMallory</bdi>", "<bdi>محمد</bdi>"
    totals = [game.engine_state().totals(i).total for i in (0, 1)]

    history = Client().get("/history/?tab=public").content.decode()
    review = alice.get(f"/g/{game.code}/review/?step=1").content.decode()

    players = re.findall(r'<span class="(?:winner)?">(.*?)</span>', history)
    assert players == [f"{mallory} {totals[0]}", f"{arabic} {totals[1]}"]
    assert f'<th scope="col">{mallory}</th><th scope="col">{arabic}</th>' in review  # columns
    assert f"{mallory} <strong>{totals[0]}</strong>" in review  # the ranking
    assert f'<p class="step-text">{mallory} rolls ' in review  # the step, and the turns'
    assert f"<li><strong>{arabic}</strong>" in review and f"{arabic} scores " in review


def test_a_nul_in_the_player_searched_for_is_left_out_as_from_a_name(
    alice: Client, dice: object
) -> None:
    """Names are kept without control characters (``names.tidy_name``), and so is the
    name searched for: 'a<NUL>b' searches for 'ab' (PostgreSQL holds no NUL in a string)."""
    abby = play_to_the_end(alice, create_game(alice, upper_only="on", players="Abby"))
    other = play_to_the_end(alice, create_game(alice, upper_only="on", players="Bob"))

    response = Client().get("/history/?tab=public&player=a%00b")

    assert response.status_code == 200
    page = response.content.decode()
    assert abby.code in page and other.code not in page
    assert 'value="ab"' in page


def test_the_reviews_legend_says_the_pace_of_the_games_bonus(alice: Client, dice: object) -> None:
    game = play_to_the_end(alice, create_game(alice, ruleset="maxi_yatzy", upper_only="on"))

    page = alice.get(f"/g/{game.code}/review/").content.decode()

    assert "ahead of (+) or behind (-) an even pace to 75 points so far" in page
    assert "50 points once Ones to Sixes reach 75 together" in page
    assert "three of each number" not in page


def test_the_reviews_scorecard_has_the_tables_short_heads(alice: Client, dice: object) -> None:
    """Issue 46: many players on a phone read "Co..." four times over the review's card."""
    game = create_game(
        alice,
        name="Dave",
        players="Computer 1\nComputer 2\nComputer 3\nComputer 4",
        upper_only="on",
    )
    play_to_the_end(alice, game)

    page = unisolated(alice.get(f"/g/{game.code}/review/").content.decode())

    card = re.search(
        r'<table class="scorecard by-player columns-5">.*?</thead>', page, re.S
    ).group()
    shorts = re.findall(r'<span class="player-short" aria-hidden="true">([^<]*)</span>', card)
    assert shorts == ["Dav", "Com1", "Com2", "Com3", "Com4"]
    assert '<span class="player-name">Computer 3</span>' in card  # the whole name, read out
