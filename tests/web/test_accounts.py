"""Optional accounts on Django's own auth (players/): signing up, logging in and out,
changing and resetting a password, the header, and their security (rate limits,
validators, the session rotated, CSRF, no account enumeration)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from players.models import Player
from tests.conftest import LimitsClock

PASSWORD = "dice-tumble-42"


def sign_up(client: Client, username: str = "alice", password: str = PASSWORD, **extra: str):
    data = {"username": username, "password1": password, "password2": password, **extra}
    return client.post("/accounts/signup/", data)


def log_in(client: Client, username: str = "alice", password: str = PASSWORD):
    return client.post("/accounts/login/", {"username": username, "password": password})


@pytest.fixture
def account(db: None) -> User:
    user = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    Player.objects.create(user=user)
    return user


def test_the_sign_up_page_has_djangos_fields_and_labels(alice: Client) -> None:
    page = alice.get("/accounts/signup/").content.decode()

    for label in ("Username", "Password", "Password confirmation", "E-mail address (optional)"):
        assert f">{label}:</label>" in page or f">{label}</label>" in page, label
    assert 'name="csrfmiddlewaretoken"' in page


def test_signing_up_logs_in_and_the_header_says_who(alice: Client) -> None:
    assert "Log in" in alice.get("/").content.decode()

    response = sign_up(alice, email="alice@example.com")

    assert response.status_code == 302 and response["Location"] == "/"
    user = User.objects.get(username="alice")
    assert user.email == "alice@example.com" and Player.objects.filter(user=user).exists()
    page = alice.get("/").content.decode()
    assert "Logged in as" in page and "<bdi>alice</bdi>" in page and "Log out" in page


def test_the_e_mail_address_is_optional(alice: Client) -> None:
    assert sign_up(alice).status_code == 302
    assert User.objects.get(username="alice").email == ""


def test_djangos_password_validators_refuse_a_weak_password(alice: Client) -> None:
    response = sign_up(alice, password="12345678")

    assert response.status_code == 200
    page = response.content.decode()
    assert "This password is too common." in page
    assert "This password is entirely numeric." in page
    assert not User.objects.exists()


def test_a_taken_username_is_refused_in_words(alice: Client, account: User) -> None:
    page = sign_up(alice).content.decode()

    assert "A user with that username already exists." in page
    assert User.objects.count() == 1


def test_logging_in_rotates_the_session(alice: Client, account: User) -> None:
    alice.get("/")
    alice.session.save()
    before = alice.cookies["sessionid"].value

    assert log_in(alice).status_code == 302

    assert alice.cookies["sessionid"].value != before
    assert "Logged in as" in alice.get("/").content.decode()


def test_a_wrong_password_and_an_unknown_username_get_the_same_answer(
    alice: Client, account: User
) -> None:
    wrong = log_in(alice, password="not-it").content.decode()
    unknown = log_in(alice, username="nobody", password="not-it").content.decode()

    words = "Please enter a correct username and password."
    assert words in wrong and words in unknown
    strip = re.compile(r'value="[^"]+"|"X-CSRFToken": "[^"]+"')
    assert strip.sub("", wrong) == strip.sub("", unknown)


def test_logging_out_is_a_post_and_leaves_the_account(alice: Client, account: User) -> None:
    log_in(alice)

    assert alice.get("/accounts/logout/").status_code == 405
    assert alice.post("/accounts/logout/").status_code == 302

    assert "Logged in as" not in alice.get("/").content.decode()


def test_every_account_form_refuses_a_post_without_its_csrf_token(account: User) -> None:
    careful = Client(enforce_csrf_checks=True)
    for path in (
        "/accounts/signup/",
        "/accounts/login/",
        "/accounts/logout/",
        "/accounts/password_reset/",
    ):
        assert careful.post(path, {"username": "alice"}).status_code == 403, path
    careful.force_login(account)
    assert careful.post("/accounts/password_change/", {}).status_code == 403


def test_a_password_is_changed_with_the_old_one(alice: Client, account: User) -> None:
    log_in(alice)
    new = "rolling-sixes-77"
    data = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}

    response = alice.post("/accounts/password_change/", data)

    assert response.status_code == 302
    assert "Your password was changed." in alice.get(response["Location"]).content.decode()
    assert User.objects.get(username="alice").check_password(new)


def test_a_reset_mails_a_link_that_sets_a_new_password(alice: Client, account: User) -> None:
    response = alice.post("/accounts/password_reset/", {"email": "alice@example.com"})

    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].subject == "Your Yatzy password"
    link = re.search(r"http://testserver(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form = alice.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    new = "rolling-sixes-77"
    done = alice.post(form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    assert User.objects.get(username="alice").check_password(new)


def test_a_reset_for_an_unknown_address_answers_as_for_a_known_one(
    alice: Client, account: User
) -> None:
    known = alice.post("/accounts/password_reset/", {"email": "alice@example.com"})
    unknown = alice.post("/accounts/password_reset/", {"email": "nobody@example.com"})

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
def test_log_ins_past_the_failures_of_a_username_are_refused_with_429(
    settings, limits_on: LimitsClock
) -> None:
    settings.YATZY_FAILURE_RATES = {"login": {"username": (3, 900), "address": None}}
    user = User.objects.create_user("alice", "", PASSWORD)
    Player.objects.create(user=user)
    guesser, alice = Client(REMOTE_ADDR="192.0.2.1"), Client(REMOTE_ADDR="192.0.2.2")
    for _ in range(3):
        assert log_in(guesser, username="Alice", password="guess").status_code == 200

    refused = log_in(alice)  # the right password, from elsewhere, for the same username

    assert refused.status_code == 429
    assert "Too many failed log-ins for this username or from your network" in (
        refused.content.decode()
    )
    assert int(refused["Retry-After"]) <= 900
    assert log_in(alice, username="bob", password="guess").status_code == 200  # another name
    limits_on.advance(900)
    assert log_in(alice).status_code == 302


@pytest.mark.django_db(transaction=True)
def test_log_ins_past_the_failures_of_an_address_are_refused_with_429(
    settings, limits_on: LimitsClock
) -> None:
    settings.YATZY_FAILURE_RATES = {"login": {"username": None, "address": (2, 900)}}
    guesser = Client(REMOTE_ADDR="192.0.2.1")
    log_in(guesser, username="alice", password="guess")
    log_in(guesser, username="bob", password="guess")

    assert log_in(guesser, username="carol", password="guess").status_code == 429
    assert log_in(Client(REMOTE_ADDR="192.0.2.9"), "carol", "guess").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_sign_ups_past_the_limit_of_an_address_are_refused_with_429(
    settings, limits_on: LimitsClock
) -> None:
    from tests.site_client import AtTheDoor

    settings.YATZY_RATES["account"]["address"] = (2, 600)
    for number in range(2):
        data = {"username": f"p{number}", "password1": PASSWORD, "password2": PASSWORD}
        assert AtTheDoor(Client()).post("/accounts/signup/", data).status_code == 302

    data = {"username": "p3", "password1": PASSWORD, "password2": PASSWORD}
    assert AtTheDoor(Client()).post("/accounts/signup/", data).status_code == 429
    assert User.objects.count() == 2
