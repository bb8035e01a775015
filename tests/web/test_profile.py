"""A player's profile (players/profile.py): their numbers per rule set, private until
they make it public; and the skill rating, worked out once a game is over."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.strategy.solver import Variant
from players import rating
from players.models import Player, Rating, Record
from tests.conftest import create_game, play_to_the_end, solved_tables, unisolated
from tests.web.test_accounts import sign_up


def played(client: Client, capture, **fields: str) -> Game:
    """A game made and played to its end by ``client``, its end's work done as after a
    real commit (``django_capture_on_commit_callbacks``)."""
    with capture(execute=True):
        return play_to_the_end(client, create_game(client, **fields))


def profile(client: Client, username: str = "alice"):
    return client.get(f"/players/{username}/")


def test_a_finished_game_is_in_the_players_record(
    alice: Client, dice: object, django_capture_on_commit_callbacks
) -> None:
    sign_up(alice)
    game = played(alice, django_capture_on_commit_callbacks, players="Bob")

    record = Record.objects.get()
    state = game.started_state()
    assert record.game == game and record.position == 0 and record.ruleset == "yatzy"
    assert record.score == state.totals(0).total and record.scorecards == 2
    assert record.won == (state.totals(0).total >= state.totals(1).total)
    assert record.rated  # alone on her scorecard, a whole game


def test_the_games_a_browser_played_before_signing_up_are_recorded(
    alice: Client, dice: object, django_capture_on_commit_callbacks
) -> None:
    game = played(alice, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        sign_up(alice)

    assert Record.objects.get().game == game


def test_the_profile_shows_the_numbers_per_rule_set(
    alice: Client, dice: object, django_capture_on_commit_callbacks
) -> None:
    sign_up(alice)
    games = [played(alice, django_capture_on_commit_callbacks, players="Bob") for _ in range(2)]
    played(alice, django_capture_on_commit_callbacks, ruleset="yahtzee")

    page = unisolated(profile(alice).content.decode())

    scores = [game.started_state().totals(0).total for game in games]
    yatzy = page.split('<h2 id="stats-yatzy">')[1].split("</section>")[0]
    assert "Scandinavian Yatzy" in yatzy and "<dt>Games played</dt><dd>2</dd>" in yatzy
    assert f"<dt>Best score</dt><dd>{max(scores)}</dd>" in yatzy
    assert f"<dt>Average score</dt><dd>{sum(scores) / 2:.1f}</dd>" in yatzy
    assert "against others" in yatzy and "Games with a Yatzy" in yatzy
    assert "Games with the upper bonus" in yatzy
    assert "Scores over time: Scandinavian Yatzy" in yatzy  # the chart, and its numbers
    yahtzee = page.split('<h2 id="stats-yahtzee">')[1].split("</section>")[0]
    assert "<dt>Games played</dt><dd>1</dd>" in yahtzee and "Games with a Yahtzee" in yahtzee
    for game in games:
        assert f'href="/g/{game.code}/review/"' in page  # the last games, to review
    assert "Played against most" in page and "<td>Bob</td><td>2</td>" in page


def test_the_profile_is_private_until_made_public(alice: Client, bob: Client) -> None:
    sign_up(alice)
    nobody = "There is no public profile at this address."

    assert "This profile is private: only you see it." in profile(alice).content.decode()
    assert profile(bob).status_code == 404 and nobody in profile(bob).content.decode()
    assert profile(bob, "%00alice").status_code == 404  # no NUL reaches a query
    unknown = profile(bob, "nobody-at-all")
    assert unknown.status_code == 404 and nobody in unknown.content.decode()

    alice.post("/accounts/profile/visibility/", {"public": "1"})

    assert profile(bob).status_code == 200
    assert "Make my profile private" not in profile(bob).content.decode()
    alice.post("/accounts/profile/visibility/", {"public": "0"})
    assert profile(bob).status_code == 404


def test_only_the_owner_makes_a_profile_public(bob: Client) -> None:
    response = bob.post("/accounts/profile/visibility/", {"public": "1"})

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_header_links_to_ones_own_profile(alice: Client) -> None:
    sign_up(alice)

    assert 'href="/players/alice/"' in alice.get("/").content.decode()


# -- the rating ------------------------------------------------------------------------------


def records_with_losses(player: Player, losses: list[float], days_ago: int = 100) -> None:
    """Rated records of Scandinavian Yatzy with ``losses``, a day apart, oldest first."""
    ruleset = "yatzy"
    start = timezone.now() - dt.timedelta(days=days_ago)
    for number, lost in enumerate(losses):
        Record.objects.create(
            player=player,
            game=Game.objects.create(ruleset=ruleset, host_browser=player.browser_id),
            position=0,
            ruleset=ruleset,
            finished_at=start + dt.timedelta(days=number),
            score=200,
            scorecards=1,
            won=False,
            yatzy=False,
            upper_bonus=False,
            rated=True,
            lost=lost,
        )


def test_the_rating_is_the_mean_loss_with_its_standard_error_and_trend(alice: Client) -> None:
    sign_up(alice)
    player = Player.objects.get()
    records_with_losses(player, [20.0, 22.0, 18.0, 20.0])  # oldest first
    assert rating.rate(player, "yatzy") is None  # fewer than five games

    records_with_losses(player, [30.0] * 6 + [10.0] * 5, days_ago=50)
    found = rating.rate(player, "yatzy")

    assert found is not None and found.games == 15
    losses = [20, 22, 18, 20, *[30] * 6, *[10] * 5]
    assert found.mean_loss == pytest.approx(sum(losses) / 15)
    newer, older = losses[::-1][:7], losses[::-1][-7:]
    assert found.trend == pytest.approx(sum(newer) / 7 - sum(older) / 7)
    assert found.standard_error > 0


def test_the_rating_counts_the_last_fifty_games_only(alice: Client) -> None:
    sign_up(alice)
    player = Player.objects.get()
    records_with_losses(player, [100.0] * 10 + [5.0] * 50)

    assert rating.rate(player, "yatzy").mean_loss == pytest.approx(5.0)


def test_games_played_through_the_site_are_analysed_and_rated(
    alice: Client, dice: object, django_capture_on_commit_callbacks
) -> None:
    solved_tables(Variant("yatzy"))
    sign_up(alice)
    games = [played(alice, django_capture_on_commit_callbacks) for _ in range(5)]

    records = Record.objects.order_by("finished_at")
    assert [r.game for r in records] == games and all(r.lost is not None for r in records)
    from games.analysis import analyse

    assert records[0].lost == pytest.approx(analyse(games[0]).cards[0].total_loss, abs=0.01)
    found = Rating.objects.get(ruleset="yatzy")
    assert found.games == 5
    page = unisolated(profile(alice).content.decode())
    assert f"{found.mean_loss:.1f} ± {found.standard_error:.1f} points lost" in page
    assert "What the rating means, and why luck cannot move it" in page


def test_no_rating_below_five_games(
    alice: Client, dice: object, django_capture_on_commit_callbacks
) -> None:
    solved_tables(Variant("yatzy"))
    sign_up(alice)
    played(alice, django_capture_on_commit_callbacks)

    assert not Rating.objects.exists()
    assert (
        "No rating yet: a rating takes 5 analysed games; 1 so far."
        in profile(alice).content.decode()
    )


def test_team_and_upper_section_games_are_not_rated(
    alice: Client, dice: object, django_capture_on_commit_callbacks
) -> None:
    sign_up(alice)
    played(alice, django_capture_on_commit_callbacks, upper_only="on")

    assert not Record.objects.get().rated


def test_the_rating_page_says_what_it_means(alice: Client) -> None:
    page = alice.get("/rating/").content.decode()

    assert "Why luck cannot move it" in page and "standard error" in page


def test_manage_py_rate_makes_what_was_left_undone(
    alice: Client, dice: object, django_capture_on_commit_callbacks
) -> None:
    solved_tables(Variant("yatzy"))
    sign_up(alice)
    games = [played(alice, django_capture_on_commit_callbacks) for _ in range(2)]
    Record.objects.filter(game=games[0]).update(lost=None)  # a server stopped before
    Record.objects.filter(game=games[1]).delete()  # and another before it recorded

    call_command("rate", stdout=StringIO())

    records = Record.objects.order_by("finished_at")
    assert [r.game for r in records] == games and all(r.lost is not None for r in records)
