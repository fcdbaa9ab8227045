"""Webhook mode, as ``python -m bot`` runs it with ``KOZEL_MODE=webhook``: Telegram's updates
arrive by POST, and only with the secret token the bot registered."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from pydantic import ValidationError

from bot.app import App, build, setup, teardown, webhook_options
from devtools.fake_telegram import FakeTelegram
from tests.bot.harness import settings_for

SECRET = "s3cret_Token-1"
PUBLIC_URL = "https://bot.example.org/kozel/hook"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def webhook_bot(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[tuple[App, str]]:
    port = free_port()
    settings = settings_for(
        tg,
        tmp_path / "kozel.sqlite3",
        mode="webhook",
        webhook_url=PUBLIC_URL,
        webhook_secret=SECRET,
        webhook_listen="127.0.0.1",
        webhook_port=port,
    )
    app = build(settings)
    await app.initialize()
    await setup(app)
    await app.start()
    assert app.updater is not None
    await app.updater.start_webhook(**webhook_options(settings))
    local = f"http://127.0.0.1:{port}/kozel/hook"
    tg.deliver_webhooks_to(local)
    try:
        yield app, local
    finally:
        await app.updater.stop()
        await app.stop()
        await teardown(app)
        await app.shutdown()


async def test_updates_arrive_by_webhook_with_the_secret(
    tg: FakeTelegram, webhook_bot: tuple[App, str]
) -> None:
    _, local = webhook_bot
    # the bot registered its public URL and secret with Telegram
    assert tg.webhook is not None
    assert tg.webhook["url"] == PUBLIC_URL
    assert tg.webhook["secret_token"] == SECRET

    masha = tg.user(801, "Masha")
    group = tg.group(-801, "Yard")
    await tg.send_text(masha, tg.private(masha), "/start")
    await tg.wait_for_message(masha, "Hi, Masha!")
    await tg.send_text(masha, group, "/new")
    await tg.wait_for_message(group, "new table (opened by Masha)")
    assert tg.webhook_deliveries and all(status == 200 for _, status in tg.webhook_deliveries)

    # someone who knows the address but not the secret is turned away, and nothing happens
    forged = dict(tg.injected_updates[-1], update_id=999_999_999)
    before = len(tg.calls)
    async with aiohttp.ClientSession(trust_env=False) as session:
        for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "guess"}):
            async with session.post(local, json=forged, headers=headers) as reply:
                assert reply.status == 403
    await tg.wait_idle()
    assert [c.method for c in tg.calls[before:]] == []


@pytest.mark.parametrize(
    ("url", "secret"),
    [
        (None, SECRET),
        ("http://bot.example.org/hook", SECRET),  # Telegram delivers to https only
        (PUBLIC_URL, None),
        (PUBLIC_URL, "has spaces"),
    ],
)
def test_webhook_mode_refuses_to_start_half_configured(
    tg: FakeTelegram, tmp_path: Path, url: str | None, secret: str | None
) -> None:
    with pytest.raises(ValidationError):
        settings_for(
            tg, tmp_path / "k.sqlite3", mode="webhook", webhook_url=url, webhook_secret=secret
        )
