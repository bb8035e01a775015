"""What a browser's session keeps: the seat tokens of games still going (or just over),
never more than ``MAX_SEAT_TOKENS``; and nothing at all for a page only looked at."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.viewer import MAX_SEAT_TOKENS, TOKENS_KEY
from tests.conftest import create_game, version

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def tokens(game: Game) -> set[str]:
    return set(game.seats.values_list("token", flat=True))


def ended(game: Game, ago: timedelta) -> None:
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, finished_at=timezone.now() - ago
    )


def test_the_session_forgets_the_seats_of_games_long_over(alice: Client) -> None:
    long_over, just_over, going = (create_game(alice, players="Bob") for _ in range(3))
    ended(long_over, timedelta(days=1, minutes=1))
    ended(just_over, timedelta(hours=23, minutes=59))  # its players may still play again

    newest = create_game(alice, players="Bob")

    kept = set(alice.session[TOKENS_KEY])
    assert kept == tokens(just_over) | tokens(going) | tokens(newest)


def test_the_session_forgets_the_seats_of_deleted_games(alice: Client) -> None:
    gone = create_game(alice, players="Bob")
    Game.objects.filter(pk=gone.pk).delete()

    newest = create_game(alice, players="Bob")

    assert set(alice.session[TOKENS_KEY]) == tokens(newest)


def test_the_session_keeps_at_most_so_many_tokens_and_its_oldest_seats_come_back(
    alice: Client, dice: object
) -> None:
    games = [create_game(alice, players="Bob") for _ in range(MAX_SEAT_TOKENS // 2 + 5)]

    kept = alice.session[TOKENS_KEY]
    assert len(kept) == MAX_SEAT_TOKENS
    assert tokens(games[-1]) <= set(kept)
    oldest = games[0]
    assert not tokens(oldest) & set(kept)
    # the oldest table is still alice's: her browser holds its seats
    rolled = alice.post(f"/g/{oldest.code}/roll/", {"version": version(oldest)}, **HTMX)
    assert rolled.status_code == 200
    assert Game.objects.get(pk=oldest.pk).engine_state().roll_number == 1


@pytest.mark.parametrize("page", ["/", "/history/", "/history/?tab=public"])
def test_a_page_only_looked_at_stores_no_session(page: str) -> None:
    browser = Client()

    assert browser.get(page).status_code == 200
    assert browser.get(page).status_code == 200
    assert Session.objects.count() == 0
