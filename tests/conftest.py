"""Shared fixtures: seeded dice, and named browsers (alice, bob, a spectator, the
operator who reads /metrics)."""

from __future__ import annotations

import fcntl
import hashlib
import os
import random
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from ipaddress import ip_network
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from hypothesis import settings as hypothesis_settings

from games import limits, rules, services
from games.models import Game
from games.strategy import tables
from games.strategy.build import variants_named
from games.strategy.solver import Solver, Variant
from yatzy_site.env import SQLITE_ENGINE

ROOT = Path(__file__).resolve().parents[1]


def channels_of_this_worker() -> None:
    """On Redis, this worker's channel layer and the servers it starts keep their groups
    apart from other workers' and other checkouts' (the Watch and Open tables lists'
    groups have one name for a site): Redis's pub/sub is one space for all its
    databases, and another worker's list pushed to this one's page failed its test.
    The settings are read before this runs: the layer's, not yet made, is set here too."""
    from django.conf import settings

    checkout = hashlib.blake2b(str(ROOT).encode(), digest_size=4).hexdigest()
    prefix = f"asgi-{checkout}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    os.environ["YATZY_CHANNEL_PREFIX"] = prefix  # for the servers the tests start
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG")
    if config is not None and "prefix" in config:
        config["prefix"] = prefix


channels_of_this_worker()

# Hypothesis' runs: a few dozen examples a test and the same ones on every run (CI has
# two busy cores, and a failure must come back when run again); "explore" tries many
# more, new ones each time: HYPOTHESIS_PROFILE=explore. A test that names its own
# max_examples keeps it.
hypothesis_settings.register_profile("repeatable", max_examples=25, derandomize=True, deadline=None)
hypothesis_settings.register_profile("explore", max_examples=500, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

# No solver tables built behind the tests' backs (a game asking for missing ones would
# start a build of ~40 s of both cores): the tests build what they use, in the open.
os.environ.setdefault("YATZY_BUILD_TABLES", "0")
# The suite creates more games from one address in a minute than any household would:
# no limits (games/limits.py) in it, the servers it starts included, but for the tests
# of the limits, which turn them on (``limits_on``).
os.environ.setdefault("YATZY_LIMITS", "0")
# Nor does a server the suite starts through `manage.py serve` tidy beside itself,
# but in the test of that.
os.environ.setdefault("YATZY_TIDY_EVERY_S", "0")


def solved_tables(variant: Variant) -> Solver:
    """The solver's tables of ``variant``, built first if missing, in a process of their
    own: the build forks a worker per core, and a test process may have threads of
    earlier tests alive (asgiref's, the computer players' timer), one of which could
    hold a lock at the fork that then stays held in the child for good."""
    solver = tables.load(variant)
    if solver is None:
        assert variants_named([variant.name]) == [variant], variant  # the name says it all
        # One build at a time: the other pytest-xdist worker, asking for the same tables,
        # waits for this build and loads them rather than build them again beside it.
        cache = tables.cache_dir()
        cache.mkdir(parents=True, exist_ok=True)
        with open(cache / "tests-build.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            solver = tables.load(variant)
            if solver is None:
                command = [sys.executable, "-m", "games.strategy.build", "--variant", variant.name]
                built = subprocess.run(
                    command, cwd=ROOT, capture_output=True, text=True, check=False
                )
                assert built.returncode == 0, built.stderr
                solver = tables.load(variant)
    assert solver is not None
    return solver


@pytest.fixture
def no_tables_built(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A solver cache without tables: those the tests built are not there."""
    monkeypatch.setenv("YATZY_SOLVER_CACHE", str(tmp_path))
    monkeypatch.setattr(tables, "_LOADED", {})


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """On a database server (PostgreSQL), a test database named for this checkout as well
    as for the pytest-xdist worker (``test_yatzy_gw0_1a2b3c4d``): two checkouts tested at
    once against one server (two worktrees, CI beside a developer) would otherwise
    create, flush and drop the same databases under each other. SQLite's test database
    is a file in the checkout's own var/ already."""
    from django.conf import settings

    checkout = hashlib.blake2b(str(ROOT).encode(), digest_size=4).hexdigest()
    for database in settings.DATABASES.values():
        if database["ENGINE"] == SQLITE_ENGINE:
            continue
        test = database.setdefault("TEST", {})
        test["NAME"] = f"{test.get('NAME') or 'test_' + database['NAME']}_{checkout}"


@pytest.fixture(scope="session", autouse=True)
def no_sessions_left_on_the_test_database(
    django_db_setup: None, django_db_blocker: object
) -> Iterator[None]:
    """On PostgreSQL, end the other sessions on the test database before it is dropped.
    Threads of this process keep their connections open after their last query
    (asgiref's sync threads for the async tests and the computer players' steps),
    and PostgreSQL will not drop a database in use: the run ended with a warning and
    left the test database behind."""
    yield
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:  # type: ignore[attr-defined]
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def bots_step_by_hand(settings) -> None:
    """Computer players wait for the test to step them (``services.bot_move``)."""
    settings.YATZY_BOT_RUNNER = "manual"


def script_dice(monkeypatch: pytest.MonkeyPatch, source: rules.Dice) -> None:
    """Every game of the test rolls the faces of ``source``, in the order asked,
    instead of those its seed gives."""
    monkeypatch.setattr(services.core, "dice_of_seed", lambda seed: source)


@pytest.fixture(autouse=True)
def no_limits_nor_tidying(settings) -> None:
    """No limits on what a browser may do (see YATZY_LIMITS above), and no tidying
    beside a ``manage.py serve`` called in the test (see YATZY_TIDY_EVERY_S above)."""
    settings.YATZY_LIMITS = False
    settings.YATZY_TIDY_EVERY = 0


@pytest.fixture(autouse=True)
def records_at_once(settings) -> None:
    """A finished game's records and ratings are worked out where it ends, once it has
    committed (players/background.py), not on a thread that would outlive the test."""
    settings.YATZY_RECORDS_RUNNER = "inline"


@pytest.fixture(autouse=True)
def quick_passwords(settings) -> None:
    """Passwords hashed at once: the real hasher takes a good part of a second a hash,
    which is its point, and is not what the tests of accounts test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> random.Random:
    """Seeded dice for every game in the test."""
    rng = random.Random(1)
    script_dice(monkeypatch, rules.RandomDice(rng))
    return rng


@pytest.fixture
def alice(db: None) -> Client:
    return Client()


@pytest.fixture
def bob(db: None) -> Client:
    return Client()


@pytest.fixture
def spectator(db: None) -> Client:
    return Client()


@pytest.fixture
def operator(settings) -> Client:
    """A browser at the address the settings let read /metrics (the test client's)."""
    settings.YATZY_METRICS_ALLOW = [ip_network("127.0.0.1")]
    return Client()


NEW_GAME = {
    "name": "Alice",
    "ruleset": "yatzy",
    "players": "",
    "invites": "0",
    "teams": "0",
    "upper_bonus": "50",
    "yahtzee_bonus": "on",
    "public": "on",
}


def create_game(client: Client, **fields: str) -> Game:
    """Create a game through the New game form; return it."""
    response = client.post("/games/new/", {**NEW_GAME, **fields})
    assert response.status_code == 302, response.content.decode()[:2000]
    code = re.search(r"/g/([^/]+)/", response["Location"]).group(1)
    return Game.objects.get(code=code)


def version(game: Game) -> str:
    return str(Game.objects.get(pk=game.pk).version)


def unisolated(html: str) -> str:
    """``html`` with its names' isolation taken out (``<bdi>`` and FSI ... PDI:
    ``games.bidi``), for a test of what a page says rather than of how it isolates."""
    return re.sub("</?bdi>|[\u2068\u2069]", "", html)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def play_to_the_end(players: Client | dict[int, Client], game: Game) -> Game:
    """Play ``game`` to its end: the computer players by their own choice, every other
    player rolling once and scoring in their scorecard's first open category.
    ``players``: one browser for every player, or each player's by player index."""
    while play_a_turn(players, game):
        pass
    return fresh(game)


def play_a_turn(players: Client | dict[int, Client], game: Game) -> bool:
    """One turn of ``play_to_the_end`` (a computer player's one step); False once the
    game is over. A test with sockets open plays turn by turn, each in a trip of its own
    to the sync thread, so that the sockets' dispatch, which needs that thread too, keeps
    up: one trip for a whole game left a socket's messages queued in the channel layer
    past its capacity (100), and the last were dropped."""
    if fresh(game).status != Game.Status.PLAYING:
        return False
    if services.bot_move(game.code, fresh(game).version):
        return True
    htmx = {"HTTP_HX_REQUEST": "true"}
    state = fresh(game).engine_state()
    client = players if isinstance(players, Client) else players[state.current_player]
    client.post(f"/g/{game.code}/roll/", {"version": version(game)}, **htmx)
    state = fresh(game).engine_state()
    category = state.open_categories(state.current_index)[0]
    data = {"version": version(game), "category": category, "confirm": "1"}
    scored = client.post(f"/g/{game.code}/score/", data, **htmx)
    assert scored.status_code < 400, scored.content.decode()[:500]  # or it never ends
    return True


BACKEND_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
}


def touches_the_backends(item: pytest.Item) -> bool:
    """Whether ``item`` may meet what differs between SQLite and PostgreSQL + Redis
    (tests/backend_free.py)."""
    return (
        any(item.get_closest_marker(mark) for mark in ("backends", "services", "django_db"))
        or "tests/postgres_redis/" in str(item.fspath)
        or bool(BACKEND_FIXTURES & set(getattr(item, "fixturenames", ())))
    )


@pytest.fixture(autouse=True)
def no_backends(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test marked backend_free has no database, cache, channel layer nor their
    addresses at hand (tests/backend_free.py)."""
    if request.node.get_closest_marker("backend_free") is None:
        return
    from tests import backend_free

    for name in ("DATABASE_URL", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    settings = request.getfixturevalue("settings")
    settings.CACHES = backend_free.CACHES
    settings.CHANNEL_LAYERS = backend_free.CHANNEL_LAYERS


def pytest_itemcollected(item: pytest.Item) -> None:
    """Marks read by -m: e2e, and backend_free (tests/backend_free.py)."""
    if "tests/e2e/" in str(item.fspath):
        item.add_marker(pytest.mark.e2e)
    if not touches_the_backends(item):
        item.add_marker(pytest.mark.backend_free)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests last: Playwright's sync API keeps an event loop running in the
    main thread until the session ends, and sync Django code must not meet it. (After
    pytest-django's own order, by database use, which mixes them in.)

    Within each part, the tests marked slow first: pytest-xdist hands tests out in this
    order, and a long test handed out last keeps one worker busy after the others are
    done."""
    items.sort(
        key=lambda item: ("tests/e2e/" in str(item.fspath), item.get_closest_marker("slow") is None)
    )


class LimitsClock:
    """The clock the limits count their windows by, moved by the test."""

    def __init__(self) -> None:
        self.now = 86_400_000.0  # the start of a window of every length the tests use

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def limits_on(settings, monkeypatch: pytest.MonkeyPatch) -> LimitsClock:
    """The limits at work (``games.limits``), counted in a store of this test's own, by a
    clock it moves; every rate off until the test sets it
    (``settings.YATZY_RATES["create"]["browser"] = (2, 60)``)."""
    settings.YATZY_LIMITS = True
    settings.YATZY_REFUSAL_DELAY_MS = 0  # answered at once (the pause has its own test)
    settings.YATZY_RATES = {
        kind: {"browser": None, "address": None} for kind in settings.YATZY_RATES
    }
    settings.CACHES = {
        **settings.CACHES,
        "limits": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"limits-{uuid.uuid4().hex}",
        },
    }
    clock = LimitsClock()
    monkeypatch.setattr(limits, "clock", clock)
    return clock
