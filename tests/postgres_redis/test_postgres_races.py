"""Concurrency on PostgreSQL: racing actions leave a consistent game.

Each race starts its actions at one barrier on separate connections; the row lock
and the version check must let exactly the legal ones through, each once.
"""

from __future__ import annotations

import random

import pytest
from django.db import IntegrityError, transaction

from games import services
from games.errors import ActionError
from games.models import Game, GameEvent, ScoreEntry, Seat
from games.rules import GameState, RandomDice, ScriptedDice, TableOptions
from games.rules import roll as engine_roll
from games.services import SeatSpec
from games.viewer import Viewer
from tests.conftest import script_dice
from tests.postgres_redis.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _services(postgres: None, monkeypatch: pytest.MonkeyPatch) -> None:
    script_dice(monkeypatch, RandomDice(random.Random(7)))


def hot_seat_game(players: int = 2, **options: bool) -> tuple[Game, Viewer]:
    host = Viewer("host-browser")
    game = services.create_game(
        host,
        ruleset="yatzy",
        options=TableOptions(**options),
        seats=[SeatSpec(Seat.Kind.LOCAL, f"P{n}") for n in range(players)],
    )
    return game, Viewer(host.browser_id, frozenset(services.local_tokens(game, host)))


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def successes(outcomes: list[object]) -> list[object]:
    return [o for o in outcomes if not isinstance(o, Exception)]


def test_it_applies_one_of_two_simultaneous_scores(postgres: None) -> None:
    game, alice = hot_seat_game()
    game = services.roll(game.code, alice, game.version)
    version = game.version

    outcomes = race([lambda: services.score(game.code, alice, version, "chance") for _ in range(6)])

    assert len(successes(outcomes)) == 1
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert all(isinstance(o, ActionError) and o.status == 409 for o in refused)
    game = fresh(game)
    assert game.version == version + 1
    assert ScoreEntry.objects.filter(game=game).count() == 1


def test_a_double_clicked_roll_rolls_once() -> None:
    game, alice = hot_seat_game()
    version = game.version

    outcomes = race([lambda: services.roll(game.code, alice, version) for _ in range(4)])

    assert len(successes(outcomes)) == 1
    state = fresh(game).engine_state()
    assert state.roll_number == 1
    assert GameEvent.objects.filter(game=game, kind=GameEvent.Kind.ROLL).count() == 1


def test_a_roll_racing_a_score_lets_exactly_one_through() -> None:
    game, alice = hot_seat_game()
    game = services.roll(game.code, alice, game.version)
    version = game.version

    outcomes = race(
        [
            lambda: services.roll(game.code, alice, version),
            lambda: services.score(game.code, alice, version, "chance"),
        ]
    )

    assert len(successes(outcomes)) == 1
    state = fresh(game).engine_state()
    scored = ScoreEntry.objects.filter(game=game).count()
    assert (scored, state.turn, state.roll_number) in {(1, 1, 0), (0, 0, 2)}


def test_two_seats_acting_at_once_only_the_seat_to_move_acts() -> None:
    game = services.create_game(
        Viewer("alice-browser"),
        ruleset="yatzy",
        options=TableOptions(),
        seats=[SeatSpec(Seat.Kind.LOCAL, "Alice"), SeatSpec(Seat.Kind.REMOTE)],
    )
    alice = Viewer("alice-browser", frozenset(services.local_tokens(game, Viewer("alice-browser"))))
    bob_seat = services.join(game.code, Viewer("bob-browser"), "Bob")
    bob = Viewer("bob-browser", frozenset({bob_seat.token}))
    game = services.start(game.code, alice, fresh(game).version)
    version = game.version

    outcomes = race(
        [
            lambda: services.roll(game.code, alice, version),
            lambda: services.roll(game.code, bob, version),
        ]
    )

    assert not isinstance(outcomes[0], Exception)
    assert isinstance(outcomes[1], ActionError)
    assert fresh(game).engine_state().roll_number == 1


def test_a_join_racing_the_start_either_seats_the_friend_or_turns_them_away() -> None:
    host = Viewer("host-browser")
    game = services.create_game(
        host,
        ruleset="yatzy",
        options=TableOptions(),
        seats=[SeatSpec(Seat.Kind.LOCAL, "Host"), SeatSpec(Seat.Kind.REMOTE)],
    )
    version = fresh(game).version

    outcomes = race(
        [
            lambda: services.join(game.code, Viewer("friend-browser"), "Friend"),
            lambda: services.start(game.code, host, version),
        ]
    )

    game = fresh(game)
    seats = list(game.seats.all())
    if isinstance(outcomes[1], Exception):  # the join came first and bumped the version
        assert isinstance(outcomes[1], ActionError) and outcomes[1].status == 409
        assert game.status == Game.Status.LOBBY
        assert [s.name for s in seats] == ["Host", "Friend"]
    elif isinstance(outcomes[0], Exception):  # the start came first
        assert game.status == Game.Status.PLAYING
        assert [s.name for s in seats] == ["Host"]
    else:
        pytest.fail("a join and a start of the same version cannot both apply")
    assert all(s.player_index is not None for s in seats) == (game.status == "playing")


def test_a_crowd_of_racing_clicks_leaves_a_game_its_log_replays() -> None:
    game, alice = hot_seat_game(players=3)
    categories = GameState.from_dict(game.state).category_keys
    chooser = random.Random(11)
    for _ in range(12):
        version = fresh(game).version
        category = chooser.choice(categories)
        options = [
            lambda v=version: services.roll(game.code, alice, v),
            lambda v=version: services.hold(game.code, alice, v, [0, 2]),
            lambda v=version, c=category: services.score(game.code, alice, v, c),
        ]
        actions = [chooser.choice(options) for _ in range(4)]
        outcomes = race(actions)
        assert len(successes(outcomes)) <= 1

    game = fresh(game)
    events = list(GameEvent.objects.filter(game=game))
    versions = [event.version for event in events]
    assert versions == sorted(versions)
    assert set(versions) == set(range(game.version + 1))
    assert _replay(game, events) == game.engine_state()


def _replay(game: Game, events: list[GameEvent]) -> GameState:
    """The state the event log describes, rebuilt through the engine."""
    from games import rules

    players = [[seat.player_index] for seat in game.seats.order_by("player_index")]
    state = rules.new_game(game.ruleset, players, TableOptions.from_dict(game.options))
    for event in events:
        player = state.current_player
        if event.kind == GameEvent.Kind.ROLL:
            held = event.data["held"]
            fresh_faces = [v for i, v in enumerate(event.data["dice"]) if i not in held]
            state = engine_roll(state, player, ScriptedDice(fresh_faces), held)
        elif event.kind == GameEvent.Kind.HOLD:
            state = rules.hold(state, player, event.data["held"])
        elif event.kind == GameEvent.Kind.SCORE:
            state = rules.score(state, player, event.data["category"])
    return state


def test_the_database_refuses_a_second_entry_in_one_category() -> None:
    game, alice = hot_seat_game()
    game = services.roll(game.code, alice, game.version)
    services.score(game.code, alice, game.version, "chance")

    with pytest.raises(IntegrityError), transaction.atomic():
        ScoreEntry.objects.create(game=game, scorecard=0, category="chance", points=1, turn=9)


def test_join_pressed_at_once_in_several_tabs_takes_one_seat() -> None:
    """One browser's presses of Join, each on its own connection (as from two server
    processes), before its session holds any seat: the browser gets one seat, every
    press answers with that seat, and the other invitations stay open."""
    game = services.create_game(
        Viewer("host-browser"),
        ruleset="yatzy",
        options=TableOptions(),
        seats=[SeatSpec(Seat.Kind.LOCAL, "Host"), *[SeatSpec(Seat.Kind.REMOTE)] * 3],
    )
    bob = Viewer("bob-browser")

    outcomes = race([lambda: services.join(game.code, bob, "Bob") for _ in range(4)])

    assert all(isinstance(seat, Seat) for seat in outcomes), outcomes
    assert len({seat.token for seat in outcomes}) == 1
    assert list(game.seats.filter(browser_id="bob-browser").values_list("name", flat=True)) == [
        "Bob"
    ]
    assert game.seats.filter(kind=Seat.Kind.REMOTE, claimed_at=None).count() == 2
