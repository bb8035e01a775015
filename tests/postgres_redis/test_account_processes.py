"""Accounts where two server processes share PostgreSQL and Redis: a session made on
one is logged in on the other, and failed log-ins are counted across both."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from bench.clients import Browser
from tests.servers import Server, two_processes

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.services]
PASSWORD = "dice-tumble-42"


@pytest.fixture
def servers(postgres: None, redis_layer: None) -> Iterator[list[Server]]:
    limits = {
        "YATZY_LIMITS": "1",
        "YATZY_LIMIT_LOGIN_FAILURES": "3/15m",
        "YATZY_LIMIT_LOGIN_FAILURES_PER_ADDRESS": "off",
    }
    with two_processes(**limits) as started:
        yield started


def browser_on(server: Server) -> Browser:
    return Browser(server.url, server.ws_url)


async def log_in(browser: Browser, username: str, password: str) -> int:
    await browser.get("/accounts/login/")
    answer = await browser.post("/accounts/login/", {"username": username, "password": password})
    return answer.status_code


async def test_an_account_is_one_on_both_processes(servers: list[Server]) -> None:
    username = f"alice-{uuid.uuid4().hex[:8]}"  # (Redis may hold other runs' counts)
    laptop, phone = browser_on(servers[0]), browser_on(servers[1])
    await laptop.get("/accounts/signup/")
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    assert (await laptop.post("/accounts/signup/", data)).status_code == 302

    assert "Logged in as" in (await laptop.get("/")).text
    assert await log_in(phone, username, PASSWORD) == 302
    assert f">{username}</bdi>" in (await phone.get("/")).text


async def test_failed_log_ins_are_counted_across_processes(servers: list[Server]) -> None:
    username = f"bob-{uuid.uuid4().hex[:8]}"
    one = browser_on(servers[0])
    await one.get("/accounts/signup/")
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    assert (await one.post("/accounts/signup/", data)).status_code == 302
    guesser_one, guesser_two = browser_on(servers[0]), browser_on(servers[1])

    assert await log_in(guesser_one, username, "guess-1") == 200
    assert await log_in(guesser_two, username, "guess-2") == 200
    assert await log_in(guesser_one, username, "guess-3") == 200

    assert await log_in(guesser_two, username, PASSWORD) == 429
    assert await log_in(browser_on(servers[0]), username, PASSWORD) == 429
