"""The table's moves through the test client: each works, each refusal is specific,
answered with a 4xx and the table as it was."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import rules
from games.models import Game, ScoreEntry, Seat
from games.scorecard import short_heads
from tests.conftest import NEW_GAME, create_game, fresh, script_dice, unisolated, version
from tests.seen import seen
from tests.web.test_room import join

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(alice: Client, dice: object) -> Game:
    return create_game(alice, players="Bob")


def roll(client: Client, game: Game, **extra: str):
    return client.post(f"/g/{game.code}/roll/", {"version": version(game), **extra}, **HTMX)


def score(client: Client, game: Game, category: str, **extra: str):
    data = {"version": version(game), "category": category, "confirm": "1", **extra}
    return client.post(f"/g/{game.code}/score/", data, **HTMX)


def test_the_table_shows_dice_as_buttons_and_a_scorecard(alice: Client, game: Game) -> None:
    roll(alice, game)
    page = unisolated(alice.get(f"/g/{game.code}/").content.decode())

    state = fresh(game).engine_state()
    for number, face in enumerate(state.dice, start=1):
        assert f'aria-label="Die {number}: {face}"' in page
    assert 'aria-pressed="false"' in page
    assert (
        '<th scope="col" title="Alice" class="current" aria-current="true">'
        '<span class="player-short" aria-hidden="true">Ali</span>'
        '<span class="player-name">Alice</span></th>'
    ) in page
    assert 'role="status"' in page
    assert "Roll" in page and "2 rolls left" in page


def test_the_table_page_is_never_cached(alice: Client, game: Game) -> None:
    # its page id is its own: a copy from the cache would share it with an open page
    assert "no-store" in alice.get(f"/g/{game.code}/")["Cache-Control"]


def test_a_plain_form_post_redirects_back_to_the_table(alice: Client, game: Game) -> None:
    response = alice.post(f"/g/{game.code}/roll/", {"version": version(game)})

    assert response.status_code == 302
    assert response["Location"] == f"/g/{game.code}/"
    assert fresh(game).engine_state().roll_number == 1


def test_htmx_gets_the_table_partial_back(alice: Client, game: Game) -> None:
    response = roll(alice, game)

    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="table"')
    assert "<html" not in body


def test_clicking_a_die_holds_it_and_clicking_again_releases_it(alice: Client, game: Game) -> None:
    roll(alice, game)

    alice.post(f"/g/{game.code}/hold/", {"version": version(game), "die": "2"}, **HTMX)
    assert fresh(game).engine_state().held == (2,)
    alice.post(f"/g/{game.code}/hold/", {"version": version(game), "die": "2"}, **HTMX)
    assert fresh(game).engine_state().held == ()


def test_a_held_die_reads_held_and_only_the_player_to_move_can_press_the_dice(
    alice: Client, spectator: Client, game: Game
) -> None:
    roll(alice, game)
    answer = alice.post(f"/g/{game.code}/hold/", {"version": version(game), "die": "2"}, **HTMX)
    mine = seen(answer.content.decode(), {"my-turn", "player", "host"})
    watched = seen(spectator.get(f"/g/{game.code}/").content.decode())

    face = fresh(game).engine_state().dice[2]
    held = (
        f'<button type="submit" id="die-2" name="die" value="2" class="die if-mine held"'
        f' aria-pressed="true" aria-label="Die 3: {face}" title="Held: click to release">'
    )
    assert held in mine
    # a die the viewer cannot press does not tell them to click it
    assert (
        held.replace(" if-mine", "").replace(' title="Held: click to release">', " disabled>")
        in watched
    )
    assert mine.count('title="Click to hold">') == 4 and " disabled><svg" not in mine
    assert watched.count('name="die"') == 5 and watched.count(" disabled><svg") == 5
    assert "click" not in watched.partition('class="dice"')[2].partition("</form>")[0]
    # nor is a spectator offered a chime for a turn they do not have
    assert "Chime when it is my turn" in alice.get(f"/g/{game.code}/").content.decode()
    assert "Chime when it is my turn" not in watched


def test_score_buttons_say_what_they_score(alice: Client, game: Game) -> None:
    body = roll(alice, game).content.decode()

    state = fresh(game).engine_state()
    fours = 4 * state.dice.count(4)
    assert f'aria-label="Score {fours} in Fours"' in body


def test_scoring_writes_the_entry_and_passes_the_turn(alice: Client, game: Game) -> None:
    roll(alice, game)
    dice = fresh(game).engine_state().dice
    response = score(alice, game, "chance")

    assert response.status_code == 200
    entry = ScoreEntry.objects.get(game=game)
    assert (entry.category, entry.points, entry.scorecard) == ("chance", sum(dice), 0)
    assert fresh(game).engine_state().current_player == 1
    assert "Your turn, Bob." in unisolated(response.content.decode())


def test_a_zero_score_asks_for_confirmation_first(alice: Client, game: Game) -> None:
    roll(alice, game)
    state = fresh(game).engine_state()
    zero = next(key for key in state.category_keys if _points(game, key) == 0)

    response = alice.post(
        f"/g/{game.code}/score/", {"version": version(game), "category": zero}, **HTMX
    )

    assert "Score 0 in" in response.content.decode()
    assert not ScoreEntry.objects.exists()
    score(alice, game, zero)
    assert ScoreEntry.objects.get().points == 0


def test_a_zero_that_is_the_only_move_left_is_scored_without_asking(
    alice: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forced order, no one rolled in three: Ones is the only category and no roll is
    left, so "Score 0 in Ones?" asked about the one thing the player could do. With a
    roll left, the zero is still asked about: rolling again is the other choice."""
    script_dice(monkeypatch, rules.ScriptedDice([2, 3, 4, 5, 6] * 3))
    game = create_game(alice, forced_order="on")
    roll(alice, game)
    asked = alice.post(
        f"/g/{game.code}/score/", {"version": version(game), "category": "ones"}, **HTMX
    )
    assert "Score 0 in Ones? The category is then used up." in asked.content.decode()
    roll(alice, game)
    roll(alice, game)

    scored = alice.post(
        f"/g/{game.code}/score/", {"version": version(game), "category": "ones"}, **HTMX
    )

    assert "The category is then used up" not in scored.content.decode()
    assert ScoreEntry.objects.get().points == 0


def test_it_refuses_a_used_category(alice: Client, bob: Client, game: Game) -> None:
    roll(alice, game)
    score(alice, game, "chance")
    roll(alice, game)  # Bob's turn, played at Alice's screen
    score(alice, game, "ones")
    roll(alice, game)
    before = fresh(game).version

    response = score(alice, game, "chance")

    assert response.status_code == 400
    assert "Chance is already used: choose another category." in response.content.decode()
    assert fresh(game).version == before


def test_it_refuses_a_fourth_roll(alice: Client, game: Game) -> None:
    for _ in range(3):
        roll(alice, game)

    response = roll(alice, game)

    assert response.status_code == 400
    assert "You have used all three rolls" in response.content.decode()
    assert fresh(game).engine_state().roll_number == 3


def test_a_spectator_cannot_act_for_a_seat_and_is_told_they_watch(
    alice: Client, spectator: Client, game: Game
) -> None:
    """A spectator was told "It is Alice's turn, not yours.": they never have a turn."""
    response = roll(spectator, game)

    assert response.status_code == 403
    assert "You are watching this table: only its players can play." in response.content.decode()
    assert fresh(game).engine_state().roll_number == 0


def test_a_player_cannot_act_out_of_turn(alice: Client, bob: Client, dice: object) -> None:
    game = create_game(alice, invites="1")
    join(bob, game, "Bob")
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})

    response = roll(bob, game)

    assert response.status_code == 403
    assert "It is Alice&#x27;s turn, not yours." in unisolated(response.content.decode())
    assert fresh(game).engine_state().roll_number == 0


def test_a_stale_page_gets_the_fresh_table(alice: Client, game: Game) -> None:
    old = version(game)
    roll(alice, game)

    response = alice.post(f"/g/{game.code}/roll/", {"version": old}, **HTMX)

    assert response.status_code == 409
    body = response.content.decode()
    assert "The table has changed since your page was drawn" in body
    assert f'data-version="{version(game)}"' in body
    assert fresh(game).engine_state().roll_number == 1


@pytest.mark.parametrize(
    ("path", "data", "says"),
    [
        ("roll", {}, "missing what it needs"),
        ("roll", {"version": "seven"}, "missing what it needs"),
        ("hold", {"die": "first"}, "malformed"),
        ("hold", {"die": "9"}, "Hold dice by their positions"),
        ("score", {"category": ""}, "Choose a category first."),
        ("score", {"category": "<script>"}, "There is no category"),
        ("score", {"category": "x" * 41}, f"There is no category {'x' * 20}…"),
        ("declare", {"category": "chance"}, "does not play with declared targets"),
    ],
)
def test_a_forged_or_malformed_form_is_refused_clearly(
    alice: Client, game: Game, path: str, data: dict[str, str], says: str
) -> None:
    roll(alice, game)
    before = fresh(game).state
    data = {"version": version(game), **data} if "version" not in data and data else data

    response = alice.post(f"/g/{game.code}/{path}/", data, **HTMX)

    assert response.status_code == 400
    assert says in response.content.decode()
    assert fresh(game).state == before


def test_an_unknown_game_is_a_clear_404(alice: Client) -> None:
    for response in (alice.get("/g/nope/"), alice.post("/g/nope/roll/", {"version": "1"})):
        assert response.status_code == 404
        assert "There is no game at this address" in response.content.decode()


def test_forced_order_allows_only_the_next_category(alice: Client, dice: object) -> None:
    game = create_game(alice, forced_order="on")
    roll(alice, game)

    response = score(alice, game, "chance")

    assert response.status_code == 400
    assert "Forced order: this turn must go in Ones." in response.content.decode()
    assert score(alice, game, "ones").status_code == 200


def test_a_declared_target_is_declared_then_scored(alice: Client, dice: object) -> None:
    game = create_game(alice, declared_target="on")
    body = roll(alice, game).content.decode()
    assert 'aria-label="Declare Chance as target"' in body

    alice.post(f"/g/{game.code}/declare/", {"version": version(game), "category": "chance"}, **HTMX)
    response = score(alice, game, "ones")

    assert response.status_code == 400
    assert "Your declared target is Chance" in response.content.decode()
    assert score(alice, game, "chance").status_code == 200


def test_a_move_reads_its_session_from_the_cache_or_once_from_the_database(
    alice: Client, game: Game, settings
) -> None:
    alice.get(f"/g/{game.code}/")

    with CaptureQueriesContext(connection) as queries:
        assert roll(alice, game).status_code == 200

    read = [q["sql"] for q in queries if "django_session" in q["sql"]]
    if settings.SESSION_ENGINE == "yatzy_site.sessions":  # the embedded default: cached
        assert read == []
    else:  # with Redis, from the database alone (docs/deploy.md, "When Redis is down")
        assert len(read) == 1 and read[0].startswith("SELECT")
    assert fresh(game).engine_state().roll_number == 1


def test_a_score_row_written_behind_the_lock_is_answered_as_a_stale_page(
    alice: Client, game: Game
) -> None:
    roll(alice, game)
    before = fresh(game)
    ScoreEntry.objects.create(game=game, scorecard=0, category="chance", points=1, turn=0)

    response = score(alice, game, "chance")

    assert response.status_code == 409
    assert "The table has changed since your page was drawn" in response.content.decode()
    after = fresh(game)
    assert (after.version, after.state) == (before.version, before.state)
    assert list(ScoreEntry.objects.filter(game=game).values_list("points")) == [(1,)]


def test_a_move_writes_its_own_fields_and_not_the_spectator_count(
    alice: Client, game: Game
) -> None:
    with CaptureQueriesContext(connection) as queries:
        assert roll(alice, game).status_code == 200

    (update,) = [q["sql"] for q in queries if q["sql"].startswith('UPDATE "games_game"')]
    assert '"state"' in update and '"version"' in update
    assert '"spectators"' not in update and '"host_browser"' not in update


def _points(game: Game, key: str) -> int:
    from games.rules import scoring_options

    return scoring_options(fresh(game).engine_state())[key]


def test_the_presence_list_names_who_is_connected_away_or_a_computer(
    alice: Client, bob: Client, dice: object
) -> None:
    carol = Client()
    game = create_game(alice, invites="2", bots="1")
    bob.post(f"/g/{game.code}/join/", {"name": "<b>Bob</b>"})
    carol.post(f"/g/{game.code}/join/", {"name": "Carol"})
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    game.seats.filter(name="Carol").update(connections=1)

    listed = presence_list(alice, game)
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    in_finnish = presence_list(alice, game)

    assert listed == [
        '<li class="offline"><bdi>Alice</bdi>: away</li>',  # the host, with no socket here
        '<li class="offline"><bdi>&lt;b&gt;Bob&lt;/b&gt;</bdi>: away</li>',
        '<li class="online"><bdi>Carol</bdi>: connected</li>',
        '<li class="bot"><bdi>Computer 1 (Good)</bdi>: computer player</li>',
    ]
    assert in_finnish[2] == '<li class="online"><bdi>Carol</bdi>: paikalla</li>'
    assert len(in_finnish) == 4


def test_the_sites_computer_players_are_one_line_of_the_presence_list(
    alice: Client, bob: Client, dice: object
) -> None:
    """Fifteen computer players were fifteen lines between the dice and the scorecard."""
    game = create_game(alice, invites="1", bots="3")
    bob.post(f"/g/{game.code}/join/", {"name": "Bob"})
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})

    listed = presence_list(alice, game)
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})

    assert listed == [
        '<li class="offline"><bdi>Alice</bdi>: away</li>',
        '<li class="offline"><bdi>Bob</bdi>: away</li>',
        '<li class="bot">3 computer players</li>',
    ]
    assert presence_list(alice, game)[2] == '<li class="bot">3 tietokonepelaajaa</li>'


def test_a_table_of_one_screen_lists_no_one_there(alice: Client) -> None:
    game = create_game(alice, players="Bob")

    assert presence_list(alice, game) == []  # all are at it, or none


def presence_list(client: Client, game: Game) -> list[str]:
    page = client.get(f"/g/{game.code}/").content.decode()
    listed = page.partition('<ul class="presence"')[2].partition("</ul>")[0]
    return re.findall(r"<li .*?</li>", listed)


def test_the_roll_button_counts_the_rolls_left_and_is_off_when_none_are(
    alice: Client, bob: Client, game: Game
) -> None:
    buttons = []
    for _ in range(3):
        roll(alice, game)
        buttons.append(roll_button(alice, game))
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})

    assert buttons == [
        '<button type="submit" id="roll-button" class="primary roll-button if-mine">Roll'
        ' <span class="rolls-left">(2 rolls left)</span></button>',
        '<button type="submit" id="roll-button" class="primary roll-button if-mine">Roll'
        ' <span class="rolls-left">(1 roll left)</span></button>',
        '<button type="submit" id="roll-button" class="primary roll-button" disabled>Roll'
        ' <span class="rolls-left">(0 rolls left)</span></button>',
    ]
    assert "(0 heittoa jäljellä)</span>" in roll_button(alice, game)
    assert " disabled>" in roll_button(bob, game)  # a browser without a seat watches


def roll_button(client: Client, game: Game) -> str:
    page = seen(client.get(f"/g/{game.code}/").content.decode())
    found = re.search(r'<button type="submit"[^>]* class="primary roll-button.*?</button>', page)
    return found.group(0)


def test_the_yahtzee_bonus_row_is_there_only_where_the_table_plays_it(alice: Client) -> None:
    with_bonus = create_game(alice, ruleset="yahtzee")
    fields = {key: value for key, value in NEW_GAME.items() if key != "yahtzee_bonus"}
    response = alice.post("/games/new/", {**fields, "ruleset": "yahtzee"})  # box unticked
    without = Game.objects.get(code=response["Location"].split("/")[2])

    assert not without.engine_state().options.yahtzee_bonus
    assert 'scope="row">Yahtzee bonus</th>' in alice.get(f"/g/{with_bonus.code}/").content.decode()
    assert "Yahtzee bonus</th>" not in alice.get(f"/g/{without.code}/").content.decode()


def test_the_table_says_its_house_rules(alice: Client, spectator: Client, dice: object) -> None:
    """A player in forced order is offered one score only; the table says why."""
    ruled = create_game(alice, players="Bob", forced_order="on", teams="2")
    plain = create_game(alice, players="Bob")

    heading = re.compile(r'<h1 class="table-title">(.*?)</h1>')
    for client in (alice, spectator):  # to every browser, pushed tables too
        page = client.get(f"/g/{ruled.code}/").content.decode()
        assert heading.search(page).group(1) == (
            'Scandinavian Yatzy <small class="house-rules">Forced order, Teams</small>'
        )
    roll(alice, ruled)
    moved = alice.get(f"/g/{ruled.code}/", **HTMX).content.decode()
    assert '<small class="house-rules">Forced order, Teams</small>' in moved
    page = alice.get(f"/g/{plain.code}/").content.decode()
    assert heading.search(page).group(1) == "Scandinavian Yatzy"


def test_an_upper_section_only_yahtzee_table_does_not_say_it_has_no_yahtzee_bonus(
    alice: Client,
) -> None:
    """Upper section only, there is no Yahtzee box and no extra Yahtzee: the bonus switched
    off is no house rule of that game."""
    fields = {key: value for key, value in NEW_GAME.items() if key != "yahtzee_bonus"}
    response = alice.post("/games/new/", {**fields, "ruleset": "yahtzee", "upper_only": "on"})
    upper_only = Game.objects.get(code=response["Location"].split("/")[2])
    response = alice.post("/games/new/", {**fields, "ruleset": "yahtzee"})
    whole = Game.objects.get(code=response["Location"].split("/")[2])

    heading = re.compile(r'<small class="house-rules">(.*?)</small>')
    page = alice.get(f"/g/{upper_only.code}/").content.decode()
    assert heading.search(page).group(1) == "Upper section only"
    page = alice.get(f"/g/{whole.code}/").content.decode()
    assert heading.search(page).group(1) == "No Yahtzee bonus"


def test_the_table_says_the_last_move_and_announces_it(alice: Client, dice: object) -> None:
    """What happened last is said under the turn banner, and put in a live region that
    stays on the page (the table is swapped whole at every move); when the move passed
    the turn on, the region says whose turn it is now."""
    game = create_game(alice, players="Bob")
    assert 'class="last-move"' not in alice.get(f"/g/{game.code}/").content.decode()

    rolled = alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    dice_shown = ", ".join(map(str, fresh(game).engine_state().dice))
    held = alice.post(f"/g/{game.code}/hold/", {"version": version(game), "die": "1"}, **HTMX)
    face = fresh(game).engine_state().dice[1]
    scored = alice.post(
        f"/g/{game.code}/score/",
        {"version": version(game), "category": "chance", "confirm": "1"},
        **HTMX,
    )
    points = fresh(game).engine_state().scorecards[0].entries[0][1]

    alice_ = "<bdi>Alice</bdi>"  # each name isolated (games.bidi), in the live region too
    assert f'<p class="last-move">{alice_} rolled {dice_shown}.</p>' in rolled.content.decode()
    assert f'<p class="last-move">{alice_} holds {face}.</p>' in held.content.decode()
    answer = scored.content.decode()
    assert f'<p class="last-move">{alice_} scored {points} in Chance.</p>' in answer
    assert (
        '<p id="announcement" class="visually-hidden" aria-live="polite" hx-swap-oob="innerHTML">'
        f'{alice_} scored {points} in Chance. <span class="if-mine">Your turn, <bdi>Bob</bdi>.'
        " Roll the dice.</span></p>"
    ) in seen(answer, {"my-turn", "player", "host"})  # Bob plays at Alice's screen
    page = alice.get(f"/g/{game.code}/").content.decode()  # the whole page has it too
    assert page.count('id="announcement"') == 1 and page.count('class="last-move"') == 1


def test_the_last_move_says_an_extra_yahtzees_bonus(alice: Client) -> None:
    """The line said 'scored 30 in Sixes' while the total went up by 130."""
    from dataclasses import replace

    game = create_game(alice, ruleset="yahtzee")
    state = game.engine_state()
    card = replace(state.scorecards[0], entries=(("yahtzee", 50),))
    game.set_engine_state(state.evolve(scorecards=(card,), dice=(6, 6, 6, 6, 6), roll_number=1))
    game.save()

    answer = alice.post(
        f"/g/{game.code}/score/",
        {"version": version(game), "category": "sixes", "confirm": "1"},
        **HTMX,
    ).content.decode()

    assert "<bdi>Alice</bdi> scored 30 in Sixes and a Yahtzee bonus of 100." in answer
    assert fresh(game).engine_state().totals(0).total == 50 + 30 + 100


def extra_yahtzee(client: Client, entries: tuple, faces: int = 6, **fields: str) -> Game:
    """An American Yahtzee table of Alice and Bob (at her screen) where Alice has just
    rolled five ``faces`` with her scorecard's ``entries`` written."""
    from dataclasses import replace

    game = create_game(client, ruleset="yahtzee", players="Bob", **fields)
    state = game.engine_state()
    card = replace(state.scorecards[0], entries=entries)
    game.set_engine_state(
        state.evolve(scorecards=(card, *state.scorecards[1:]), dice=(faces,) * 5, roll_number=1)
    )
    game.version += 1  # no table of the game as it was is shown again
    game.save()
    return game


def joker_line(page: str) -> str | None:
    found = re.search(r'<p class="joker">(.*?)</p>', page)
    return found.group(1) if found else None


def score_options(page: str) -> list[str]:
    return re.findall(r'<button type="submit" id="score-.*?</button>', page)


def test_an_extra_yahtzee_says_the_joker_rule_and_its_bonus_before_it_is_scored(
    alice: Client, spectator: Client
) -> None:
    """The button said 30 in Sixes, and the move gave 130; nothing said why Sixes only."""
    game = extra_yahtzee(alice, (("yahtzee", 50),))
    page = alice.get(f"/g/{game.code}/").content.decode()

    assert score_options(page) == [
        '<button type="submit" id="score-sixes" name="category" value="sixes"'
        ' class="score-option if-mine" aria-label="Score 30 in Sixes and a Yahtzee bonus of 100">'
        '30<span class="option-bonus"> +100</span></button>'
    ]
    said = "Joker rule: this Yahtzee must go in Sixes. Yahtzee bonus: +100 on top of the score."
    assert joker_line(page) == said
    assert joker_line(spectator.get(f"/g/{game.code}/").content.decode()) == said
    assert said in page.partition('id="announcement"')[2]  # for a screen reader too

    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    finnish = alice.get(f"/g/{game.code}/").content.decode()
    assert 'aria-label="Kirjaa 30 kohtaan Kuutoset ja Yahtzee-bonus 100">' in finnish
    assert joker_line(finnish).startswith(
        "Jokerisääntö: tämä Yahtzee on kirjattava kohtaan Kuutoset."
    )


@pytest.mark.parametrize(
    ("entries", "fields", "said", "offered"),
    [
        (  # the upper box used: the lower boxes, full house and straights in full
            (("yahtzee", 50), ("sixes", 24)),
            {},
            "Joker rule: Sixes is used, so this Yahtzee must go in an open lower category,"
            " where Full house and the straights score in full."
            " Yahtzee bonus: +100 on top of the score.",
            "Score 25 in Full house and a Yahtzee bonus of 100",
        ),
        (  # the Yahtzee box scratched: the joker, without a bonus
            (("yahtzee", 0),),
            {},
            "Joker rule: this Yahtzee must go in Sixes. No Yahtzee bonus: the Yahtzee box holds 0.",
            "Score 30 in Sixes",
        ),
        (  # a table without the bonus says so in its house rules already
            (("yahtzee", 50),),
            {"yahtzee_bonus": ""},
            "Joker rule: this Yahtzee must go in Sixes.",
            "Score 30 in Sixes",
        ),
        (  # the upper box and the lower section used: an upper box scratched
            (
                ("yahtzee", 50),
                ("sixes", 24),
                ("three_of_a_kind", 20),
                ("four_of_a_kind", 20),
                ("full_house", 25),
                ("small_straight", 30),
                ("large_straight", 40),
                ("chance", 20),
            ),
            {},
            "Joker rule: Sixes is used and the lower section is full, so this Yahtzee"
            " scores 0 in an open upper category."
            " Yahtzee bonus: +100 on top of the score.",
            "Score 0 in Ones and a Yahtzee bonus of 100",
        ),
    ],
)
def test_the_table_says_how_the_joker_rule_places_an_extra_yahtzee(
    alice: Client, entries: tuple, fields: dict[str, str], said: str, offered: str
) -> None:
    game = extra_yahtzee(alice, entries, **fields)
    page = alice.get(f"/g/{game.code}/").content.decode()

    assert joker_line(page) == said
    assert f'aria-label="{offered}"' in "".join(score_options(page))


def test_a_zero_the_joker_rule_forces_says_the_yahtzee_bonus_still_comes(alice: Client) -> None:
    """Sixes and the lower section used: five sixes score 0 in an upper box, and 100 besides,
    which the question before the zero did not say."""
    full = ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight")
    entries = (("yahtzee", 50), ("sixes", 24), *((key, 20) for key in full))
    game = extra_yahtzee(alice, (*entries, ("large_straight", 40), ("chance", 20)))
    asked = {"version": version(game), "category": "ones"}

    english = alice.post(f"/g/{game.code}/score/", asked, **HTMX).content.decode()
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    finnish = alice.post(f"/g/{game.code}/score/", asked, **HTMX).content.decode()

    assert (
        "Score 0 in Ones? The category is then used up. The Yahtzee bonus of 100 still comes."
        in english
    )
    assert "Yes, score 0 in Ones and a Yahtzee bonus of 100</button>" in english
    assert "Yahtzee-bonus 100 tulee silti." in finnish
    assert "Kyllä, kirjaa 0 kohtaan Ykköset ja Yahtzee-bonus 100</button>" in finnish
    assert fresh(game).engine_state().totals(0).total == 50 + 24 + 80 + 40 + 20  # asked only


def test_no_joker_is_said_for_five_alike_while_the_yahtzee_box_is_open(alice: Client) -> None:
    game = extra_yahtzee(alice, (("sixes", 24),), faces=5)
    page = alice.get(f"/g/{game.code}/").content.decode()

    assert joker_line(page) is None and "option-bonus" not in page
    assert 'aria-label="Score 50 in Yahtzee"' in page


def test_a_friends_seat_the_computer_plays_for_keeps_its_own_line(db: None) -> None:
    from games.rendering import table_macros
    from games.tableview import presence

    seats = (
        ("local", "Alice", True, False),
        ("bot", "Bob", False, True),  # handed to the computer while Bob was away
        ("bot", "Computer 1 (Good)", False, False),
        ("bot", "Computer 2 (Good)", False, False),
    )
    assert str(table_macros().presence_lines(presence(seats))) == (
        '<li class="online"><bdi>Alice</bdi>: connected</li>'
        '<li class="bot"><bdi>Bob</bdi>: computer player</li>'
        '<li class="bot">2 computer players</li>'
    )


def test_a_right_to_left_name_is_isolated_in_every_sentence_and_head_of_the_table(
    alice: Client, dice: object
) -> None:
    """A name in Arabic, or one stored with a right-to-left override (U+202E) before
    names were cleaned of it, reordered the words around it: "Anna scored 1 in Ones."
    showed as ".senO ni 1 derocs annA". Each is in <bdi> wherever the table says it."""
    game = create_game(alice, players="محمد")
    Seat.objects.filter(game=game, name="Alice").update(name="\u202eMallory")
    mallory, arabic = "<bdi>\u202eMallory</bdi>", "<bdi>محمد</bdi>"

    rolled = roll(alice, game).content.decode()
    scored = score(alice, game, "chance").content.decode()

    assert f"Your turn, {mallory}. Hold dice" in rolled  # the turn banner
    assert f'<p class="last-move">{mallory} rolled ' in rolled
    assert f'<p class="last-move">{mallory} scored ' in scored
    assert f"Your turn, {arabic}. Roll the dice." in scored  # and the live region's
    # the scorecard's heads, and their titles in plain text
    name = '<span class="player-short" aria-hidden="true"><bdi>{}</bdi></span>'
    name += '<span class="player-name">{}</span></th>'
    assert (
        f'<th scope="col" title="\u2068\u202eMallory\u2069">{name.format("Mal", mallory)}'
    ) in scored  # the override is not carried into the short head
    assert (
        f'<th scope="col" title="\u2068محمد\u2069" class="current" aria-current="true">'
        f"{name.format('محم', arabic)}"
    ) in scored


def legend_text(page: str) -> str:
    """The key under the scorecard as its reader reads it: words, spaces made one."""
    legend = re.search(r'<dl class="scorecard-legend">(.*?)</dl>', page, re.S)
    assert legend, "no key under the scorecard"
    return " ".join(re.sub(r"<[^>]+>", " ", legend.group(1)).split())


@pytest.mark.parametrize(
    ("ruleset", "options", "key"),
    [
        (
            "yatzy",
            {},
            "Subtotal Ones to Sixes added up; in brackets, how far they are ahead of (+) or"
            " behind (-) three of each number so far: the pace that earns the bonus."
            " Bonus 50 points once Ones to Sixes reach 63 together; until then, the points"
            " still to go.",
        ),
        (
            "yatzy",
            {"upper_bonus": "25"},
            "Bonus 25 points once Ones to Sixes reach 63 together",
        ),
        (
            "yahtzee",
            {},
            "Bonus 35 points once Ones to Sixes reach 63 together; until then, the points"
            " still to go. Yahtzee bonus 100 points for each further Yahtzee, once the"
            " Yahtzee row holds 50.",
        ),
        (
            "maxi_yatzy",
            {},
            "Subtotal Ones to Sixes added up; in brackets, how far they are ahead of (+) or"
            " behind (-) an even pace to 75 points so far: the pace that earns the bonus."
            " Bonus 50 points once Ones to Sixes reach 75 together; until then, the points"
            " still to go.",
        ),
    ],
)
def test_the_key_explains_the_sums_with_the_tables_own_rows_and_numbers(
    alice: Client, ruleset: str, options: dict[str, str], key: str
) -> None:
    """Issue 46: the key said "Subtotal (+3), (-14)" and "Bonus: 56 to go", figures
    that read like the player's own, and 63 in Maxi Yatzy, whose line is 75."""
    game = create_game(alice, ruleset=ruleset, players="Bob", **options)

    legend = legend_text(alice.get(f"/g/{game.code}/").content.decode())

    assert key in legend
    assert "(+3)" not in legend and "(-14)" not in legend and "to go:" not in legend
    assert "56" not in legend


def test_the_key_has_no_yahtzee_bonus_where_the_table_plays_without_it(alice: Client) -> None:
    game = create_game(alice, ruleset="yahtzee", players="Bob", yahtzee_bonus="")

    legend = legend_text(alice.get(f"/g/{game.code}/").content.decode())

    assert "Yahtzee bonus" not in legend and "Bonus 35 points" in legend


def test_the_key_names_the_rows_in_the_tables_language(alice: Client) -> None:
    game = create_game(alice, ruleset="maxi_yatzy", players="Bob")

    page = alice.get(f"/g/{game.code}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()

    assert "Ykköset" in legend_text(page) and "75" in legend_text(page)


@pytest.mark.parametrize(
    ("names", "heads"),
    [
        (
            ["Dave", "Computer 1 (Good)", "Computer 2 (Good)", "Computer 3 (Good)"],
            ["Dav", "Com1", "Com2", "Com3"],
        ),
        (["Alice", "Alicia", "Bob"], ["Alice", "Alici", "Bob"]),
        (["\u2068Ann\u2069 & \u2068Bo\u2069", "\u2068Cy\u2069"], ["Ann", "Cy"]),
    ],
)
def test_short_column_heads_tell_every_player_apart(names: list[str], heads: list[str]) -> None:
    assert short_heads(names) == heads
