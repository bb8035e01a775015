"""The daily challenge: one press from the home page into the day's game, the same
dice for everyone that day, the par from perfect play, the day's table, and the
day's seed kept secret until the day is over.

The day turns on the site's clock (``YATZY_CLOCK_SHIFT``, games/clock.py): each test
sets the time it needs, never waits for it.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import re
from io import StringIO

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games import clock, rules, services
from games.models import DailyAttempt, DailyChallenge, Game, GameEvent
from games.rules import fairness
from games.strategy import bots
from games.strategy.par import perfect_total
from games.strategy.solver import Variant
from games.viewer import BROWSER_KEY, Viewer
from tests.conftest import fresh, play_to_the_end, solved_tables, unisolated, version
from tests.postgres_redis.race import race

HTMX = {"HTTP_HX_REQUEST": "true"}
DAY = dt.date(2026, 6, 1)
NOON = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)


@pytest.fixture
def noon(settings) -> dt.datetime:
    """The site's clock at noon UTC on ``DAY``."""
    return at(settings, NOON)


def at(settings, moment: dt.datetime) -> dt.datetime:
    """Set the site's clock to ``moment`` (it runs on from there)."""
    settings.YATZY_CLOCK_SHIFT = moment - timezone.now()
    return moment


def enter(client: Client, ruleset: str = "yatzy", name: str = "Alice") -> Game:
    """Press the home page's button for today's challenge of ``ruleset``."""
    response = client.post("/daily/play/", {"daily": ruleset, "name": name})
    assert response.status_code == 302, response.content.decode()[:1000]
    code = re.fullmatch(r"/g/([^/]+)/", response["Location"]).group(1)
    return Game.objects.get(code=code)


def attempt(game: Game) -> DailyAttempt:
    return DailyAttempt.objects.get(game=game)


def roll(client: Client, game: Game, held: tuple[int, ...] = ()) -> tuple[int, ...]:
    """Hold exactly the dice at ``held`` (die by die, as a player clicks them), roll."""
    now = fresh(game).started_state().held
    for die in sorted(set(now) ^ set(held)):
        data = {"version": version(game), "die": str(die)}
        assert client.post(f"/g/{game.code}/hold/", data, **HTMX).status_code == 200
    response = client.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    assert response.status_code == 200, response.content.decode()[:500]
    return fresh(game).started_state().dice


def play_perfectly(client: Client, game: Game) -> Game:
    """Play ``game`` through the site as the Perfect computer player would."""
    while fresh(game).status == Game.Status.PLAYING:
        state = fresh(game).started_state()
        move = bots.choose_move(state, "perfect", random.Random(0))
        assert move.level == "perfect"
        if move.kind == "roll":
            roll(client, game, move.held)
        else:
            data = {"version": version(game), "category": move.category, "confirm": "1"}
            response = client.post(f"/g/{game.code}/score/", data, **HTMX)
            assert response.status_code == 200, response.content.decode()[:500]
    return fresh(game)


def day_page(client: Client, ruleset: str = "yatzy", day: dt.date = DAY) -> str:
    response = client.get(f"/daily/{ruleset}/{day.isoformat()}/")
    assert response.status_code == 200, response.content.decode()[:1000]
    return unisolated(response.content.decode())


# -- entering --------------------------------------------------------------------------------


def test_the_home_page_offers_todays_challenge_of_each_solved_rule_set(
    alice: Client, noon: dt.datetime
) -> None:
    page = alice.get("/").content.decode()

    assert "Daily challenge" in page
    for ruleset in ("yatzy", "yahtzee"):  # each sends the New game form's name
        assert (
            '<button type="submit" form="new-game" formaction="/daily/play/" name="daily"'
            f' value="{ruleset}"'
        ) in page
    assert "Play today's Scandinavian Yatzy" in page
    assert "Play today's American Yahtzee" in page
    assert 'value="maxi_yatzy"' not in page.split("daily-entry")[1].split("</section>")[0]


def test_one_press_enters_todays_challenge_on_the_days_dice(
    alice: Client, noon: dt.datetime
) -> None:
    game = enter(alice, "yahtzee")

    challenge = DailyChallenge.objects.get(day=DAY, ruleset="yahtzee")
    assert game.status == Game.Status.PLAYING and game.ruleset == "yahtzee"
    assert game.dice_seed == challenge.seed
    assert game.dice_commitment == challenge.commitment == fairness.commitment(challenge.seed)
    assert [seat.name for seat in game.seats.all()] == ["Alice"]
    table = alice.get(f"/g/{game.code}/").content.decode()
    assert "Daily challenge of June 1, 2026" in table
    assert challenge.commitment in table and challenge.seed not in table
    assert "Roll the dice." in table


def test_the_name_is_remembered_for_the_next_press(alice: Client, noon: dt.datetime) -> None:
    enter(alice, name="Älice")

    home = alice.get("/").content.decode()

    assert home.count('name="name"') == 1  # asked once, for both ways in
    assert 'name="name" value="Älice"' in home.split('id="new-game"')[1]


def test_every_player_of_the_day_gets_the_days_seed_and_tomorrow_another(
    alice: Client, bob: Client, settings
) -> None:
    at(settings, NOON)
    alices, bobs = enter(alice), enter(bob, name="Bob")
    at(settings, NOON + dt.timedelta(days=1))
    tomorrows = enter(bob, name="Bob")

    assert alices.dice_seed == bobs.dice_seed
    assert tomorrows.dice_seed != bobs.dice_seed
    assert DailyChallenge.objects.count() == 2


# -- the duplicate property ----------------------------------------------------------------------


def test_the_same_holds_get_the_same_dice(
    alice: Client, bob: Client, spectator: Client, noon: dt.datetime
) -> None:
    carol = spectator
    games = {who: enter(who, name=name) for who, name in ((alice, "A"), (bob, "B"), (carol, "C"))}

    first = {who: roll(who, game) for who, game in games.items()}
    assert first[alice] == first[bob] == first[carol]
    second = {
        alice: roll(alice, games[alice], held=(0, 2)),
        bob: roll(bob, games[bob], held=(0, 2)),
        carol: roll(carol, games[carol], held=(4,)),  # other holds
    }

    assert second[alice] == second[bob]
    # a die re-rolled by both shows the same face: the dice depend on where they are rolled
    assert [second[carol][i] for i in (1, 3)] == [second[alice][i] for i in (1, 3)]
    assert second[carol][4] == first[carol][4]
    seed = DailyChallenge.objects.get().seed
    expected = [fairness.CommittedDice(seed).face(0, 2, position) for position in range(5)]
    assert [second[alice][i] for i in (1, 3, 4)] == [expected[i] for i in (1, 3, 4)]


def test_a_reload_mid_game_and_pressing_again_go_back_to_the_same_game(
    alice: Client, noon: dt.datetime
) -> None:
    game = enter(alice)
    dice = roll(alice, game)
    alice.post(f"/g/{game.code}/hold/", {"version": version(game), "die": "1"}, **HTMX)

    reloaded = alice.get(f"/g/{game.code}/").content.decode()
    again = enter(alice)

    assert again == game
    assert DailyAttempt.objects.count() == 1
    assert fresh(game).started_state().dice == dice
    assert fresh(game).started_state().held == (1,)
    assert 'aria-pressed="true"' in reloaded  # the held die, still held
    assert "Back to your game" in day_page(alice)


@pytest.mark.django_db(transaction=True)
def test_two_tabs_pressing_at_once_get_one_game(settings) -> None:
    at(settings, NOON)
    alice = Client()
    session = alice.session  # the browser's, which its tabs share
    session[BROWSER_KEY] = "alices-browser"
    session.save()
    tabs = []
    for _ in range(3):
        tab = Client()
        tab.cookies = alice.cookies
        tabs.append(tab)

    responses = race(
        [lambda tab=tab: tab.post("/daily/play/", {"daily": "yatzy", "name": "A"}) for tab in tabs]
    )

    assert [r.status_code for r in responses] == [302, 302, 302]
    assert len({r["Location"] for r in responses}) == 1
    assert DailyAttempt.objects.count() == 1 and Game.objects.count() == 1


# -- results, the par and the day's table --------------------------------------------------


def test_the_par_is_what_perfect_play_scores_on_the_days_dice(
    alice: Client, noon: dt.datetime
) -> None:
    solved_tables(Variant("yatzy"))
    game = play_perfectly(alice, enter(alice))

    challenge = DailyChallenge.objects.get()
    total = game.started_state().totals(0).total
    assert (
        perfect_total("yatzy", rules.TableOptions(), fairness.CommittedDice(challenge.seed))
        == total
    )
    page = day_page(alice)
    assert f"Par: <strong>{total}</strong>" in page
    assert DailyChallenge.objects.get().par == total
    row = re.search(r"<tr class=\"mine\">(.*?)</tr>", page, re.S).group(1)
    assert "<td>1.</td>" in row and f"<td>{total}</td>" in row
    assert "<td>0.0</td>" in row and "<td>0</td>" in row  # nothing lost; on par
    review = unisolated(alice.get(f"/g/{game.code}/review/").content.decode())
    assert f"Alice scored {total} against a par of {total}" in review
    # beside the par, the review's points lost on each decision and the luck of the dice
    skill = re.search(r'<th scope="row">Alice</th>(.*?)</tr>', review, re.S).group(1)
    final, expected, _decisions, mistakes, lost, _per, luck = re.findall(r"<td>(.*?)</td>", skill)
    assert (int(final), int(mistakes), float(lost)) == (total, 0, 0.0)
    assert float(luck) == pytest.approx(total - float(expected), abs=0.1)


def test_the_par_shows_only_to_a_browser_that_has_finished(
    alice: Client, bob: Client, noon: dt.datetime
) -> None:
    solved_tables(Variant("yatzy"))
    game = play_to_the_end(alice, enter(alice))
    enter(bob, name="Bob")  # playing, not finished
    par = DailyChallenge.objects.get().par or perfect_total(
        "yatzy", rules.TableOptions(), fairness.CommittedDice(game.dice_seed)
    )

    bobs = day_page(bob)
    alices = day_page(alice)

    assert "Par:" not in bobs and "Against par" not in bobs
    assert "shows once you have finished the challenge" in bobs
    assert f"Par: <strong>{par}</strong>" in alices and "Against par" in alices
    assert "Par" not in alice.get(f"/g/{enter(bob, name='Bob').code}/").content.decode()


def test_the_first_finished_game_counts_and_the_later_are_practice(
    alice: Client, noon: dt.datetime
) -> None:
    first = play_to_the_end(alice, enter(alice))
    second = enter(alice)
    table = alice.get(f"/g/{second.code}/").content.decode()
    second = play_to_the_end(alice, second)

    assert attempt(first).result == DailyAttempt.Result.COUNTED
    assert attempt(second).result == DailyAttempt.Result.PRACTICE
    assert "practice: it does not count on the day's table" in table
    page = day_page(alice)
    counted, practice = page.split("Practice: later games")
    assert counted.count('<tr class="mine">') == 1
    assert practice.count('<tr class="mine">') == 1 and "<td>practice</td>" in practice
    assert "Play again for practice" in page


@pytest.mark.django_db(transaction=True)
def test_two_results_of_one_browser_arriving_at_once_count_once(settings) -> None:
    at(settings, NOON)
    alice = Client()
    first = enter(alice)
    # A second game of the same browser, still going too: made while the first was
    # somebody else's, as the button resumes a game being played.
    DailyAttempt.objects.filter(game=first).update(browser_id="elsewhere")
    second = enter(alice)
    DailyAttempt.objects.filter(game=first).update(browser_id=attempt(second).browser_id)
    for game in (first, second):
        while len(fresh(game).started_state().open_categories(0)) > 1:
            roll(alice, game)
            state = fresh(game).started_state()
            data = {
                "version": version(game),
                "category": state.open_categories(0)[0],
                "confirm": "1",
            }
            alice.post(f"/g/{game.code}/score/", data, **HTMX)
        roll(alice, game)

    def last_score(game: Game):
        state = fresh(game).started_state()
        data = {"version": version(game), "category": state.open_categories(0)[0], "confirm": "1"}
        return lambda: alice.post(f"/g/{game.code}/score/", data, **HTMX)

    responses = race([last_score(first), last_score(second)])

    assert [r.status_code for r in responses] == [200, 200]
    results = sorted(a.result for a in DailyAttempt.objects.all())
    assert results == [DailyAttempt.Result.COUNTED, DailyAttempt.Result.PRACTICE]
    assert fresh(first).status == fresh(second).status == Game.Status.FINISHED


def finished_attempt(name: str, score: int, minute: int) -> DailyAttempt:
    """A result on the day's table: a game entered and its end written as it would be."""
    game = services.play_daily(Viewer(f"browser-{name}"), "yatzy", name)
    finished = DailyAttempt.objects.get(game=game)
    finished.result = DailyAttempt.Result.COUNTED
    finished.score = score
    finished.lost = 10.0
    finished.finished_at = NOON + dt.timedelta(minutes=minute)
    finished.save()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    return finished


def test_the_days_table_ranks_by_score_and_ties_share_their_place(
    spectator: Client, noon: dt.datetime
) -> None:
    for name, score, minute in (
        ("Dora", 200, 1),
        ("Bea", 250, 3),
        ("Cleo", 250, 2),
        ("Abel", 180, 0),
        ("Ella", 200, 4),
    ):
        finished_attempt(name, score, minute)
    DailyChallenge.objects.update(par=240)

    page = day_page(spectator)

    rows = re.findall(r"<tr>\s*<td>(.*?)</td>\s*<td>(.*?)</td>\s*<td>(\d+)</td>", page)
    assert rows == [
        ("1.", "Cleo", "250"),  # equal scores: the first finished first, the place shared
        ("1.", "Bea", "250"),
        ("3.", "Dora", "200"),
        ("3.", "Ella", "200"),
        ("5.", "Abel", "180"),
    ]
    assert "Par:" not in page  # this browser has not played


def test_a_visitor_of_the_days_table_gets_no_session(db: None, noon: dt.datetime) -> None:
    finished_attempt("Dora", 200, 1)
    visitor = Client()  # followed a shared link

    page = day_page(visitor)

    assert "<td>Dora</td>" in page and "Play today's challenge" in page
    assert Session.objects.count() == 0


# -- the day boundary --------------------------------------------------------------------------


def test_a_game_started_before_midnight_and_finished_after_is_late_practice(
    alice: Client, bob: Client, settings
) -> None:
    at(settings, dt.datetime(2026, 6, 1, 23, 50, tzinfo=dt.UTC))
    late = enter(alice)
    for _ in range(3):
        roll(alice, late)
        state = fresh(late).started_state()
        data = {"version": version(late), "category": state.open_categories(0)[0], "confirm": "1"}
        alice.post(f"/g/{late.code}/score/", data, **HTMX)
    at(settings, dt.datetime(2026, 6, 2, 0, 10, tzinfo=dt.UTC))

    late = play_to_the_end(alice, late)
    tomorrows = enter(alice)

    assert attempt(late).result == DailyAttempt.Result.LATE
    assert tomorrows != late and tomorrows.dice_seed != late.dice_seed
    yesterday = day_page(bob)
    assert "Nobody finished this day's challenge in time." in yesterday
    assert "<td>late</td>" in yesterday
    assert late.dice_seed in yesterday  # the day is over: its seed is out
    assert late.dice_seed in alice.get(f"/g/{late.code}/review/").content.decode()


def test_the_day_table_of_today_is_there_before_anyone_plays(
    alice: Client, noon: dt.datetime
) -> None:
    page = day_page(alice)

    assert "Nobody has finished today's challenge yet." in page
    assert "Play today's challenge" in page


def test_past_days_are_browsable_from_one_to_the_next(alice: Client, settings) -> None:
    for day in (1, 3):
        at(settings, dt.datetime(2026, 6, day, 9, tzinfo=dt.UTC))
        play_to_the_end(alice, enter(alice))
    at(settings, dt.datetime(2026, 6, 5, 9, tzinfo=dt.UTC))

    first = day_page(alice, day=dt.date(2026, 6, 1))
    third = day_page(alice, day=dt.date(2026, 6, 3))

    assert 'href="/daily/yatzy/2026-06-03/" rel="next"' in first
    assert 'rel="prev"' not in first
    assert 'href="/daily/yatzy/2026-06-01/" rel="prev"' in third
    assert 'href="/daily/yatzy/2026-06-05/" rel="next"' in third  # today
    assert "Review</a>" in first and "Play today" not in first
    assert alice.get("/daily/yatzy/").url == "/daily/yatzy/2026-06-05/"


# -- the hidden seed ---------------------------------------------------------------------------


def test_no_page_push_export_or_log_shows_the_days_seed_before_the_day_is_over(
    alice: Client, bob: Client, settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    at(settings, NOON)
    game = play_to_the_end(alice, enter(alice))
    seed = game.dice_seed
    seen = [
        alice.get(f"/g/{game.code}/").content.decode(),
        alice.get(f"/g/{game.code}/review/").content.decode(),
        alice.get(f"/g/{game.code}/dice.json").content.decode(),
        alice.get("/").content.decode(),
        alice.get("/history/").content.decode(),
        day_page(alice),
        day_page(bob),
        bob.get(f"/g/{game.code}/").content.decode(),
    ]
    export = alice.get(f"/g/{game.code}/dice.json")
    others_review = bob.get(f"/g/{game.code}/review/")
    out = StringIO()
    with pytest.raises(Exception, match="secret until its day is over"):
        call_command("verify_dice", game.code, stdout=out)

    assert not [text for text in seen if seed in text]
    assert seed not in caplog.text
    assert not any(seed in str(event.data) for event in GameEvent.objects.all())
    assert export.status_code == 409
    assert export.json() == {
        "error": "A daily challenge's seed stays secret until its day is over (midnight UTC)."
    }
    assert others_review.status_code == 403
    assert "once the day is over" in others_review.content.decode()
    assert "its seed is revealed when the day is over" in seen[1]
    assert "Check the dice</button>" not in seen[1]

    at(settings, NOON + dt.timedelta(days=1))
    assert seed in day_page(bob, day=DAY)
    assert bob.get(f"/g/{game.code}/review/").status_code == 200
    exported = bob.get(f"/g/{game.code}/dice.json").json()
    assert exported["seed"] == seed and fairness.verify(exported).ok
    call_command("verify_dice", game.code, stdout=out)
    assert "all 15 rolls match the seed" in out.getvalue()


# -- sharing -----------------------------------------------------------------------------------


def test_a_result_is_shared_as_a_short_text_with_a_link_and_no_dice(
    alice: Client, noon: dt.datetime
) -> None:
    game = play_to_the_end(alice, enter(alice))
    total = game.started_state().totals(0).total

    page = day_page(alice)

    text = re.search(r"<textarea[^>]*data-share-text[^>]*>(.*?)</textarea>", page, re.S).group(1)
    assert text.startswith(f"Daily Scandinavian Yatzy challenge, June 1, 2026: {total} points")
    assert text.endswith("http://testserver/daily/yatzy/2026-06-01/")
    assert len(text) < 160
    for event in GameEvent.objects.filter(game=game, kind=GameEvent.Kind.ROLL):
        assert " ".join(map(str, event.data["dice"])) not in text
    assert 'data-share-copy="share-text"' in page and "js/share.js" in page


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "address", "status", "says"),
    [
        ("get", "/daily/play/", 405, "does not take that kind of request"),
        ("post", "/daily/yatzy/2026-06-01/", 405, "does not take that kind of request"),
        ("post", "/daily/yatzy/", 405, "does not take that kind of request"),
        ("get", "/daily/maxi_yatzy/2026-06-01/", 404, "Scandinavian Yatzy and of American"),
        ("get", "/daily/nope/", 404, "Scandinavian Yatzy and of American"),
        ("get", "/daily/yatzy/2026-02-30/", 404, "That is not a day"),
        ("get", "/daily/yatzy/yesterday/", 404, "That is not a day"),
        ("get", "/daily/yatzy/2026-6-1/", 404, "That is not a day"),
        ("get", "/daily/yatzy/%00/", 404, "That is not a day"),
        ("get", "/daily/yatzy/99999-01-01/", 404, "That is not a day"),
        ("get", "/daily/yatzy/2026-06-02/", 404, "has not come yet"),
        ("get", "/daily/yatzy/2026-05-31/", 404, "Nobody played that day"),
    ],
)
def test_a_bad_address_is_refused_clearly(
    alice: Client, noon: dt.datetime, method: str, address: str, status: int, says: str
) -> None:
    response = getattr(alice, method)(address)

    assert response.status_code == status
    assert says in response.content.decode()


@pytest.mark.parametrize(
    ("form", "status", "says"),
    [
        ({"daily": "maxi_yatzy", "name": "A"}, 404, "Scandinavian Yatzy and of American"),
        ({"daily": "", "name": "A"}, 404, "Scandinavian Yatzy and of American"),
        ({"name": "A"}, 404, "Scandinavian Yatzy and of American"),
        ({"daily": "yatzy", "name": "   "}, 400, "Please tell the table your name."),
        ({"daily": "yatzy"}, 400, "Please tell the table your name."),
        ({"daily": "yatzy", "name": "x" * 300}, 400, "A name has at most"),
        ({"daily": ["yatzy", "yahtzee"], "name": "A"}, 302, ""),  # the last one pressed
    ],
)
def test_a_bad_press_is_refused_clearly_and_starts_nothing(
    alice: Client, noon: dt.datetime, form: dict, status: int, says: str
) -> None:
    response = alice.post("/daily/play/", form)

    assert response.status_code == status
    assert says in response.content.decode()
    assert Game.objects.count() == (1 if status == 302 else 0)


def test_a_daily_game_has_no_next_game(alice: Client, noon: dt.datetime) -> None:
    game = play_to_the_end(alice, enter(alice))

    table = alice.get(f"/g/{game.code}/").content.decode()
    again = alice.post(f"/g/{game.code}/again/")

    assert "Play again</button>" not in table and "The day's table and par" in table
    assert again.status_code == 409
    assert "A daily challenge has no next game" in again.content.decode()


def test_the_site_clock_says_which_day_it_is(settings) -> None:
    at(settings, dt.datetime(2026, 6, 1, 23, 59, 30, tzinfo=dt.UTC))
    assert clock.today() == DAY
    assert clock.end_of(DAY) == dt.datetime(2026, 6, 2, tzinfo=dt.UTC)
    at(settings, dt.datetime(2026, 6, 2, 0, 0, 30, tzinfo=dt.UTC))
    assert clock.today() == DAY + dt.timedelta(days=1)
