"""Computer players through the real services: they finish whole games of every rule
set and option, show each hold and roll as a step of its own, continue a seat handed
to them, and move by themselves in a server at a watchable pace."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from datetime import timedelta
from itertools import pairwise

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from games import bots, broadcast, replay, rules, services
from games.models import Game, GameEvent, ScoreEntry, Seat
from games.services import SeatSpec
from games.strategy import tables
from games.strategy.solver import Variant
from games.viewer import Viewer
from tests.conftest import create_game, fresh, play_to_the_end, unisolated, version
from tests.sockets import Http, Socket
from tests.web.test_room import bobs_turn, join
from yatzy_site.asgi import application

HTMX = {"HTTP_HX_REQUEST": "true"}
FINNISH = {"HTTP_ACCEPT_LANGUAGE": "fi"}
HOST = Viewer("host-browser")
ORIGIN = (b"origin", b"http://127.0.0.1")
pytestmark = pytest.mark.django_db


@pytest.fixture
def bot_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.computer, "rng", random.Random(3))


def bot_table(ruleset: str, levels: list[str], options=None, teams=None) -> Game:
    seats = [
        SeatSpec(Seat.Kind.BOT, f"Bot {n}", bot_level=level, team=teams[n] if teams else None)
        for n, level in enumerate(levels)
    ]
    return services.create_game(
        HOST, ruleset=ruleset, options=options or rules.TableOptions(), seats=seats
    )


def run_bots(game: Game, limit: int = 5000) -> int:
    steps = 0
    while services.bot_move(game.code, fresh(game).version):
        steps += 1
        assert steps < limit
    return steps


@pytest.mark.parametrize("ruleset", ["yatzy", "yahtzee", "maxi_yatzy"])
@pytest.mark.parametrize("level", ["beginner", "good", "perfect"])
def test_bots_finish_a_whole_game(
    ruleset: str, level: str, dice: object, bot_choices: None
) -> None:
    game = bot_table(ruleset, [level, "good"])

    run_bots(game)

    game = fresh(game)
    state = game.engine_state()
    assert game.status == Game.Status.FINISHED
    rounds = len(state.categories)
    assert ScoreEntry.objects.filter(game=game).count() == 2 * rounds
    for index in range(2):
        entries = ScoreEntry.objects.filter(game=game, scorecard=index)
        assert sum(e.points for e in entries) == sum(p for _, p in state.scorecards[index].entries)
    assert replay.replay(game)[-1].after == state  # the log replays to the stored game


@pytest.mark.parametrize(
    ("ruleset", "options", "teams"),
    [
        ("yatzy", rules.TableOptions(forced_order=True), None),
        ("yahtzee", rules.TableOptions(declared_target=True), None),
        ("maxi_yatzy", rules.TableOptions(upper_only=True, auto_first_roll=True), [1, 2, 1, 2]),
        ("yatzy", rules.TableOptions(upper_bonus=25, declared_target=True), None),
        ("yahtzee", rules.TableOptions(yahtzee_bonus=False, forced_order=True), None),
    ],
)
def test_bots_play_every_table_option(
    ruleset: str, options: rules.TableOptions, teams, dice: object, bot_choices: None
) -> None:
    levels = ["perfect", "good", "beginner", "good"] if teams else ["perfect", "beginner"]
    game = bot_table(ruleset, levels, options, teams)

    run_bots(game)

    state = fresh(game).engine_state()
    assert state.is_finished
    if options.declared_target:
        declared = GameEvent.objects.filter(game=game, kind=GameEvent.Kind.DECLARE).count()
        assert declared == len(state.categories) * len(state.scorecards)


def test_a_bot_shows_its_hold_before_it_rolls(dice: object, bot_choices: None) -> None:
    game = bot_table("yatzy", ["good"])
    run_bots(game)

    kinds = list(GameEvent.objects.filter(game=game).values_list("kind", "data"))
    for (kind, data), (next_kind, next_data) in pairwise(kinds):
        if kind == GameEvent.Kind.HOLD:
            assert next_kind == GameEvent.Kind.ROLL
            assert next_data["held"] == data["held"]  # the roll keeps what was shown
    assert any(kind == GameEvent.Kind.HOLD for kind, _ in kinds)


def test_a_late_bot_step_changes_nothing(dice: object, bot_choices: None) -> None:
    game = bot_table("yatzy", ["good"])
    stale = fresh(game).version
    assert services.bot_move(game.code, stale)

    assert not services.bot_move(game.code, stale)  # another process already moved
    assert fresh(game).version == stale + 1


def test_bots_do_not_move_for_humans(alice: Client, dice: object) -> None:
    game = create_game(alice, bots="1")

    assert not services.bot_move(game.code, fresh(game).version)
    assert fresh(game).engine_state().roll_number == 0


def test_a_human_and_a_bot_take_turns(alice: Client, dice: object, bot_choices: None) -> None:
    game = create_game(alice, bots="1", bot_level="perfect")
    seats = list(fresh(game).seats.values_list("name", "kind", "bot_level"))
    assert seats == [("Alice", "local", ""), ("Computer 1 (Perfect)", "bot", "perfect")]

    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
    alice.post(
        f"/g/{game.code}/score/", {"version": version(game), "category": "chance", "confirm": "1"}
    )
    page = unisolated(alice.get(f"/g/{game.code}/").content.decode())
    assert "Computer 1 (Perfect)'s turn." in page
    assert "Computer 1 (Perfect): computer player" in page
    refused = alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    assert refused.status_code == 403
    # the words of a seat handed to the computer ("A computer player plays ...'s turn")
    # are not for a computer player's own
    assert "It is Computer 1 (Perfect)&#x27;s turn, not yours." in unisolated(
        refused.content.decode()
    )

    run_bots(game)

    state = fresh(game).engine_state()
    assert state.current_player == 0 and state.turn == 2
    assert len(state.scorecards[1].entries) == 1


def test_the_host_hands_an_away_player_to_the_computer(
    alice: Client, bob: Client, dice: object, bot_choices: None
) -> None:
    game = create_game(alice, invites="1")
    bob.post(f"/g/{game.code}/join/", {"name": "Bob"})
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
    alice.post(
        f"/g/{game.code}/score/", {"version": version(game), "category": "chance", "confirm": "1"}
    )
    bob.post(f"/g/{game.code}/roll/", {"version": version(game)})  # then Bob's phone dies

    too_soon = alice.post(f"/g/{game.code}/handover/", {"version": version(game)}, **HTMX)
    assert too_soon.status_code == 409
    assert "Bob is at the table: wait for their move." in unisolated(too_soon.content.decode())
    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))
    assert "Let the computer play for Bob" in unisolated(
        alice.get(f"/g/{game.code}/").content.decode()
    )
    by_bob = bob.post(f"/g/{game.code}/handover/", {"version": version(game)}, **HTMX)
    assert by_bob.status_code == 403  # only the host

    alice.post(f"/g/{game.code}/handover/", {"version": version(game)})

    bob_seat = Seat.objects.get(name="Bob")
    assert (bob_seat.kind, bob_seat.bot_level) == ("bot", "good")
    table = unisolated(alice.get(f"/g/{game.code}/").content.decode())
    assert "Bob: computer player" in table
    assert "Alice: away" in table  # still a table with a friend: its players are listed
    late = bob.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    assert late.status_code == 403  # Bob's old browser no longer holds the seat
    assert play_to_the_end(alice, game).status == Game.Status.FINISHED

    # At the end the seat is not offered back (the game is over), the next game gives
    # it; Bob, whose game the computer finished, may ask for it as a player
    at_the_end = unisolated(bob.get(f"/g/{game.code}/").content.decode())
    assert "Take Bob's seat back" not in at_the_end
    assert f'action="/g/{game.code}/again/"' in at_the_end
    assert bob.post(f"/g/{game.code}/again/").status_code == 302
    following = fresh(game).next_game
    bob.get(f"/g/{following.code}/")  # Bob follows the table, and begins (one seat along)
    again = Seat.objects.get(game=following, name="Bob")
    assert (again.kind, again.bot_level) == ("remote", "good")  # the level, for a handover
    assert (
        bob.post(f"/g/{following.code}/roll/", {"version": version(following)}).status_code == 302
    )


def test_a_player_back_from_away_takes_their_seat_back_from_the_computer(
    alice: Client, bob: Client, dice: object, bot_choices: None
) -> None:
    game = bobs_turn(alice, bob, create_game(alice, invites="1"))
    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))
    alice.post(f"/g/{game.code}/handover/", {"version": version(game)})
    services.bot_move(game.code, fresh(game).version)  # the computer rolls for Bob
    watcher = Client()

    page = unisolated(bob.get(f"/g/{game.code}/").content.decode())
    assert "While you were away, the host let a computer player play for Bob." in page
    assert "Take Bob's seat back" in page
    assert "Take" not in alice.get(f"/g/{game.code}/").content.decode()  # hers is hers
    played = bob.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    assert "A computer player plays Bob&#x27;s turn." in unisolated(played.content.decode())
    assert "It is Bob&#x27;s turn" not in unisolated(played.content.decode())
    refused = watcher.post(f"/g/{game.code}/takeback/", **HTMX)
    assert refused.status_code == 403
    assert "No seat at this table was handed over from this browser." in refused.content.decode()

    taken = bob.post(f"/g/{game.code}/takeback/", take_back_fields(page))

    assert taken.status_code == 302
    seat = Seat.objects.get(name="Bob")
    assert (seat.kind, seat.bot_level, seat.handed_from) == ("remote", "good", "")
    before = fresh(game)
    assert not services.bot_move(game.code, before.version)  # the computer has stopped
    assert fresh(game).version == before.version
    rolls = before.engine_state().roll_number
    bob.post(f"/g/{game.code}/roll/", {"version": version(game)})  # and Bob plays on
    assert fresh(game).engine_state().roll_number == rolls + 1
    assert "Take Bob" not in unisolated(bob.get(f"/g/{game.code}/").content.decode())


def test_a_player_whose_seat_the_computer_plays_comes_back_by_their_personal_link(
    alice: Client, bob: Client, dice: object, bot_choices: None
) -> None:
    """Bob's phone died on his turn and the host let the computer play for him; on his
    laptop his personal link said it was "for no seat at this table" (the seat had a
    token of the computer's), and the invite only offered to watch."""
    game = bobs_turn(alice, bob, create_game(alice, invites="1"))
    link = f"/g/{game.code}/seat/{Seat.objects.get(name='Bob').token}/"
    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))
    alice.post(f"/g/{game.code}/handover/", {"version": version(game)})
    laptop = Client()

    arrived = laptop.post(link)

    assert arrived.status_code == 302 and arrived["Location"] == f"/g/{game.code}/"
    page = laptop.get(f"/g/{game.code}/").content.decode()
    assert "Take Bob's seat back" in unisolated(page)
    assert laptop.post(f"/g/{game.code}/takeback/", take_back_fields(page)).status_code == 302
    assert Seat.objects.get(name="Bob").kind == Seat.Kind.REMOTE
    assert laptop.post(f"/g/{game.code}/roll/", {"version": version(game)}).status_code == 302
    assert Client().get(f"/g/{game.code}/seat/not-a-seat-token/").status_code == 404


def test_a_seat_taken_back_keeps_the_computer_level_it_was_handed_over_at(
    alice: Client, bob: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host hands Bob's seat to a Perfect computer player; Bob comes back and takes
    it, then goes away again: the table's button hands it to the same computer player,
    not back to the default (Good)."""
    from games.strategy import bots as strategy

    levels: list[str] = []
    choose = strategy.choose_move
    monkeypatch.setattr(
        strategy,
        "choose_move",
        lambda state, level, rng: levels.append(level) or choose(state, level, rng),
    )
    game = bobs_turn(alice, bob, create_game(alice, invites="1"))
    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))
    alice.post(f"/g/{game.code}/handover/", {"version": version(game), "level": "perfect"})
    bob.post(f"/g/{game.code}/takeback/", {"seat": Seat.objects.get(name="Bob").position})
    assert Seat.objects.get(name="Bob").kind == Seat.Kind.REMOTE
    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))
    page = alice.get(f"/g/{game.code}/").content.decode()
    handover_form = re.search(r"<form[^>]*handover/.*?</form>", page, re.S).group(0)
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', handover_form))

    again = alice.post(f"/g/{game.code}/handover/", fields)

    assert again.status_code == 302
    seat = Seat.objects.get(name="Bob")
    assert (seat.kind, seat.bot_level) == (Seat.Kind.BOT, "perfect")
    handovers = GameEvent.objects.filter(game=game, kind=GameEvent.Kind.HANDOVER)
    assert [event.data["level"] for event in handovers] == ["perfect", "perfect"]
    services.bot_move(game.code, fresh(game).version)
    assert levels == ["perfect"]


def take_back_fields(page: str, name: str = "Bob") -> dict[str, str]:
    """The fields of the page's button that takes ``name``'s seat back."""
    form = re.search(
        rf"<form class=\"handed-over\"(?:(?!</form>).)*Take {name}'s seat back.*?</form>",
        unisolated(page),
        re.S,
    ).group(0)
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))


def test_each_take_back_button_takes_back_its_own_seat(
    alice: Client, bob: Client, dice: object, bot_choices: None
) -> None:
    """Alice and Carol play at the host's screen; both are gone, and Bob, who may then act
    for the table, gives each of their turns to the computer: Alice's browser is offered
    both seats, and each button takes back the seat it names, not the first one."""
    game = create_game(alice, invites="1", players="Carol")
    join(bob, game, "Bob")
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    hosts_screen = Seat.objects.filter(game=game, name__in=["Alice", "Carol"])
    hosts_screen.update(connections=0, away_since=timezone.now() - timedelta(minutes=1))
    assert bob.post(f"/g/{game.code}/handover/", {"version": version(game)}).status_code == 302
    while services.bot_move(game.code, fresh(game).version):  # Alice's turn, by the computer
        pass
    hosts_screen.update(connections=0, away_since=timezone.now() - timedelta(minutes=1))
    assert bob.post(f"/g/{game.code}/handover/", {"version": version(game)}).status_code == 302
    assert set(
        Seat.objects.filter(game=game, kind=Seat.Kind.BOT).values_list("name", flat=True)
    ) == {
        "Alice",
        "Carol",
    }
    page = alice.get(f"/g/{game.code}/").content.decode()
    carols = take_back_fields(page, "Carol")
    assert take_back_fields(page, "Alice")["seat"] != carols["seat"]
    forged = alice.post(f"/g/{game.code}/takeback/", {**carols, "seat": "2"}, **HTMX)  # Bob's
    assert forged.status_code == 409
    assert "That seat is not one handed over from this browser" in forged.content.decode()
    assert Seat.objects.filter(game=game, kind=Seat.Kind.BOT).count() == 2

    taken = alice.post(f"/g/{game.code}/takeback/", carols)

    assert taken.status_code == 302
    kinds = dict(Seat.objects.filter(game=game).values_list("name", "kind"))
    assert kinds == {"Alice": Seat.Kind.BOT, "Carol": Seat.Kind.LOCAL, "Bob": Seat.Kind.REMOTE}
    stale = alice.post(f"/g/{game.code}/takeback/", carols, **HTMX)  # from another tab
    assert stale.status_code == 409
    assert Seat.objects.get(game=game, name="Alice").kind == Seat.Kind.BOT
    assert "Take Carol" not in unisolated(alice.get(f"/g/{game.code}/").content.decode())


def hosts_seat_handed_over(alice: Client, bob: Client) -> Game:
    """Alice's turn at her table with Bob; she has closed her page, and Bob, who may
    then act for the table, gave her seat to the computer."""
    game = create_game(alice, invites="1")
    join(bob, game, "Bob")
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    Seat.objects.filter(name="Alice").update(away_since=timezone.now() - timedelta(minutes=1))
    assert bob.post(f"/g/{game.code}/handover/", {"version": version(game)}).status_code == 302
    return game


def bob_may_act_for_the_away_host(bob: Client, game: Game) -> None:
    """At Alice's turn, with her gone: Bob is offered her skip, and it is taken."""
    Seat.objects.filter(game=game, name="Alice").update(
        connections=0, away_since=timezone.now() - timedelta(minutes=1)
    )
    assert "Skip Alice's turn" in unisolated(bob.get(f"/g/{game.code}/").content.decode())
    assert bob.post(f"/g/{game.code}/skip/", {"version": version(game)}).status_code == 302
    state = fresh(game).engine_state()
    alices = state.scorecard_of(Seat.objects.get(game=game, name="Alice").player_index)
    assert state.scorecards[alices].entries[-1][1] == 0


def test_a_hosts_seat_taken_back_is_at_the_hosts_screen_again(
    alice: Client, bob: Client, dice: object
) -> None:
    game = hosts_seat_handed_over(alice, bob)

    alice.post(f"/g/{game.code}/takeback/", {"seat": Seat.objects.get(name="Alice").position})

    seat = Seat.objects.get(name="Alice")
    assert (seat.kind, seat.browser_id) == (Seat.Kind.LOCAL, fresh(game).host_browser)
    # and when she is gone again, the table does not wait for her for ever
    bob_may_act_for_the_away_host(bob, game)


def test_a_hosts_seat_the_computer_finished_is_at_the_hosts_screen_in_the_next_game(
    alice: Client, bob: Client, dice: object
) -> None:
    game = hosts_seat_handed_over(alice, bob)
    play_to_the_end(bob, game)

    bob.post(f"/g/{game.code}/again/")

    following = fresh(game).next_game
    seat = Seat.objects.get(game=following, name="Alice")
    assert (seat.kind, seat.browser_id) == (Seat.Kind.LOCAL, game.host_browser)
    alice.get(f"/g/{following.code}/")  # she comes back to the table, at her seat
    # Bob begins the next game (the first turn moves one seat along), then it is hers
    bob.post(f"/g/{following.code}/roll/", {"version": version(following)})
    bob.post(
        f"/g/{following.code}/score/",
        {"version": version(following), "category": "chance", "confirm": "1"},
    )
    assert (
        alice.post(f"/g/{following.code}/roll/", {"version": version(following)}).status_code == 302
    )
    alice.post(
        f"/g/{following.code}/score/",
        {"version": version(following), "category": "chance", "confirm": "1"},
    )
    bob.post(f"/g/{following.code}/roll/", {"version": version(following)})
    bob.post(
        f"/g/{following.code}/score/",
        {"version": version(following), "category": "ones", "confirm": "1"},
    )
    bob_may_act_for_the_away_host(bob, following)


BEING_SOLVED = (
    "The Perfect computer players play as Good until this table&#x27;s strategy is worked"
    " out (about a minute)."
)
NOT_WORKED_OUT = (
    "The Perfect computer player plays as Good: this site has not worked out perfect play"
    " for these rules."
)


@pytest.fixture
def tables_built_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that builds missing tables by itself (the tests' does not), whose builds
    never start: nothing here waits for one."""
    monkeypatch.setenv("YATZY_BUILD_TABLES", "1")
    monkeypatch.setattr(tables, "build_later", lambda variant: False)


def test_the_table_says_that_perfect_computer_players_play_as_good_while_its_tables_are_built(
    alice: Client, bob: Client, dice: object, no_tables_built: None, tables_built_here: None
) -> None:
    lobby = create_game(alice, invites="1", bots="2", bot_level="perfect")
    assert BEING_SOLVED in alice.get(f"/g/{lobby.code}/lobby/").content.decode()
    join(bob, lobby, "Bob")
    alice.post(f"/g/{lobby.code}/start/", {"version": version(lobby)})

    assert BEING_SOLVED in alice.get(f"/g/{lobby.code}/").content.decode()
    in_finnish = bob.get(f"/g/{lobby.code}/", **FINNISH).content.decode()
    assert (
        "Täydelliset tietokonepelaajat pelaavat Hyvän tasolla, kunnes tämän pöydän strategia"
        " on laskettu (noin minuutti)." in in_finnish
    )

    tables.path_of(Variant("yatzy")).touch()  # the build is done
    alice.post(f"/g/{lobby.code}/roll/", {"version": version(lobby)})
    assert "plays as Good" not in alice.get(f"/g/{lobby.code}/").content.decode()


def test_the_table_does_not_promise_a_build_where_the_server_builds_no_tables(
    alice: Client, bob: Client, dice: object, no_tables_built: None, monkeypatch
) -> None:
    monkeypatch.setenv("YATZY_BUILD_TABLES", "0")
    game = create_game(alice, invites="1", bots="1", bot_level="perfect", upper_bonus="25")

    lobby = alice.get(f"/g/{game.code}/lobby/").content.decode()
    assert "about a minute" not in lobby
    assert NOT_WORKED_OUT in lobby and "manage.py" not in lobby  # no operator's command
    join(bob, game, "Bob")
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    table = alice.get(f"/g/{game.code}/").content.decode()
    assert NOT_WORKED_OUT in table and "manage.py" not in table
    assert (
        "Täydellinen tietokonepelaaja pelaa Hyvän tasolla: tällä sivustolla ei ole laskettu"
        " täydellistä peliä näille säännöille."
        in bob.get(f"/g/{game.code}/", **FINNISH).content.decode()
    )


def test_maxi_yatzy_which_no_server_builds_unasked_shows_no_command_to_its_players(
    alice: Client, dice: object, no_tables_built: None, tables_built_here: None
) -> None:
    """Issue 46: players read "Its administrator can, with: manage.py solve ..."."""
    game = create_game(alice, bots="1", bot_level="perfect", ruleset="maxi_yatzy")

    page = alice.get(f"/g/{game.code}/").content.decode()

    assert NOT_WORKED_OUT in page and "manage.py" not in page


@pytest.mark.parametrize(
    "fields",
    [
        {"bot_level": "good"},
        {"bot_level": "perfect", "upper_only": "on"},  # solved on the spot, when first needed
        {"bot_level": "perfect", "forced_order": "on"},
        {"bot_level": "perfect", "declared_target": "on", "upper_only": "on"},
    ],
)
def test_the_table_says_nothing_of_computer_players_that_play_at_their_level(
    alice: Client, dice: object, no_tables_built: None, fields: dict[str, str]
) -> None:
    game = create_game(alice, bots="1", **fields)

    assert "plays as Good" not in alice.get(f"/g/{game.code}/").content.decode()


def test_a_page_load_wakes_a_bot_whose_step_was_lost(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch, settings
) -> None:
    game = create_game(alice, bots="1")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
    alice.post(
        f"/g/{game.code}/score/", {"version": version(game), "category": "chance", "confirm": "1"}
    )
    woken: list[tuple] = []
    monkeypatch.setattr(bots, "schedule", lambda *args, **kwargs: woken.append(args))

    alice.get(f"/g/{game.code}/")
    assert woken == []  # the step is only late, not lost

    GameEvent.objects.filter(game=game).update(created_at=timezone.now() - timedelta(minutes=1))
    alice.get(f"/g/{game.code}/")
    assert woken == [(game.code, fresh(game).version)]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_bots_move_by_themselves_a_step_at_a_time_in_a_server(
    settings, bot_choices: None
) -> None:
    settings.YATZY_BOT_RUNNER = "thread"
    settings.YATZY_BOT_DELAY = 0.05
    settings.YATZY_SOCKET_UNREAD_KB = 1024  # the watcher reads the whole game at its end
    host = [(b"host", b"testserver")]
    served = await Http(application, "GET", "/healthz", headers=host).get_response()
    assert served["status"] == 200  # the server's loop is serving
    game = await sync_to_async(bot_table)(
        "yatzy", ["good", "beginner"], rules.TableOptions(upper_only=True)
    )
    watcher = Socket(application, f"/ws/g/{game.code}/{broadcast.new_page_id()}/", headers=[ORIGIN])
    await watcher.connect()

    deadline = time.monotonic() + 60
    while (await sync_to_async(fresh)(game)).status != Game.Status.FINISHED:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.1)
    pushed = []
    while not await watcher.receive_nothing(timeout=0.3):
        html = await watcher.receive_from()
        pushed.append(int(re.search(r'data-version="(\d+)"', html).group(1)))
    await watcher.disconnect()

    finished = await sync_to_async(fresh)(game)
    assert pushed == sorted(pushed) and pushed[-1] == finished.version  # seen live
    stamps = await sync_to_async(list)(
        GameEvent.objects.filter(game=game, seat_position__isnull=False).values_list(
            "created_at", flat=True
        )
    )
    gaps = [(b - a).total_seconds() for a, b in pairwise(stamps)]
    assert min(gaps) >= 0.04  # a step at a time, never in a burst


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_step_for_a_game_deleted_since_is_let_go_without_an_error(
    settings, caplog: pytest.LogCaptureFixture
) -> None:
    """A computer player's step or a turn's end, due at a game deleted meanwhile (the
    tidying of abandoned games): nothing to do, and nothing for the operator to look
    into (it was logged as a failure, with a traceback)."""
    settings.YATZY_BOT_RUNNER = "thread"
    caplog.set_level(logging.INFO, logger="games.bots")
    host = [(b"host", b"testserver")]
    served = await Http(application, "GET", "/healthz", headers=host).get_response()
    assert served["status"] == 200  # the server's loop is serving
    game = await sync_to_async(bot_table)("yatzy", ["good", "beginner"], rules.TableOptions())
    for action in (services.bot_move, services.expire_turn):
        bots.runner.add(game.code, game.version, 0.3, action)
    await sync_to_async(Game.objects.filter(pk=game.pk).delete)()

    deadline = time.monotonic() + 30
    while len([r for r in caplog.records if r.name == "games.bots"]) < 2:
        assert time.monotonic() < deadline, "the steps were not taken"
        await asyncio.sleep(0.05)
    said = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "games.bots"]
    assert sorted(said) == [
        (logging.INFO, f"bot_move in game {game.code} at version {game.version}: the game is gone"),
        (
            logging.INFO,
            f"expire_turn in game {game.code} at version {game.version}: the game is gone",
        ),
    ]


def test_a_computer_player_is_named_in_each_readers_language(
    alice: Client, bob: Client, dice: object
) -> None:
    """Its name was stored in the host's language: a Finnish friend read 'Computer 1
    (Good)' at the table, in the lobby and in the history."""
    game = create_game(alice, invites="1", bots="1", bot_level="good")
    bob.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    bob.post(f"/g/{game.code}/join/", {"name": "Bob"})

    assert "Tietokone 1 (Hyvä)" in bob.get(f"/g/{game.code}/lobby/").content.decode()
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    in_finnish = bob.get(f"/g/{game.code}/").content.decode()
    in_english = alice.get(f"/g/{game.code}/").content.decode()

    assert "Tietokone 1 (Hyvä)" in in_finnish and "Computer 1" not in in_finnish
    assert "Computer 1 (Good)" in in_english and "Tietokone" not in in_english
    assert Seat.objects.get(kind="bot").name == "Computer 1 (Good)"  # as its creator named it
