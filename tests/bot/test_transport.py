"""The bot's aiohttp transport speaks the Bot API as PTB's own does: results, errors, uploads."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from telegram import Bot
from telegram.error import (
    BadRequest,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from bot.transport import AiohttpRequest
from devtools.fake_telegram import FakeTelegram


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    client = Bot(
        tg.token,
        base_url=tg.base_url,
        base_file_url=tg.base_file_url,
        request=AiohttpRequest(4, trust_env=False),
        get_updates_request=AiohttpRequest(1, trust_env=False),
    )
    async with client:
        yield client


async def test_results_come_back_as_ptb_objects(tg: FakeTelegram, bot: Bot) -> None:
    group = tg.group(-900, "Zoë & <Co>")
    me = await bot.get_me()
    assert me.username == tg.bot_username
    sent = await bot.send_message(group.id, "<b>Fish</b> &amp; chips", parse_mode="HTML")
    assert sent.text == "Fish & chips"
    assert tg.message(group, sent.message_id).text == "Fish & chips"


async def test_telegram_errors_keep_their_meaning(tg: FakeTelegram, bot: Bot) -> None:
    stranger = tg.user(901, "Stranger")  # never pressed Start
    with pytest.raises(Forbidden):
        await bot.send_message(stranger.id, "hello")
    group = tg.group(-901, "Yard")
    with pytest.raises(BadRequest, match="parse entities"):
        await bot.send_message(group.id, "<b>unclosed", parse_mode="HTML")
    tg.inject_flood(chat_id=group.id, retry_after=3)
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(group.id, "too fast")
    assert caught.value.retry_after.total_seconds() == 3  # type: ignore[union-attr]


async def test_uploads_go_as_multipart(tg: FakeTelegram, bot: Bot) -> None:
    group = tg.group(-902, "Yard")
    with pytest.raises(TelegramError):  # the fake knows no sendDocument; the request is recorded
        await bot.send_document(group.id, b"standings", filename="top.txt", caption="Top")
    call = tg.calls[-1]
    assert call.method == "sendDocument"
    assert call.params["document"]["file"] == "top.txt"
    assert call.params["caption"] == "Top"
    assert call.params["chat_id"] == group.id


async def test_an_unreachable_server_is_a_network_error() -> None:
    request = AiohttpRequest(1, connect_timeout=1.0, trust_env=False)
    client = Bot("1:x", base_url="http://127.0.0.1:9/bot", request=request)
    await request.initialize()
    try:
        with pytest.raises(NetworkError):
            await client.get_me()
    finally:
        await request.shutdown()


async def test_a_saturated_pool_times_out_instead_of_waiting_forever() -> None:
    """A table's lock is held while its calls go out: waiting for a free connection is bounded."""
    release = asyncio.Event()

    async def stall(request: web.Request) -> web.Response:
        await release.wait()
        return web.json_response({"ok": True, "result": True})

    app = web.Application()
    app.router.add_post("/bot1:x/{method}", stall)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    request = AiohttpRequest(
        1, connect_timeout=0.2, read_timeout=30.0, pool_timeout=0.3, trust_env=False
    )
    client = Bot("1:x", base_url=f"http://127.0.0.1:{port}/bot", request=request)
    await request.initialize()
    try:
        first = asyncio.create_task(client.delete_webhook())  # holds the only connection
        await asyncio.sleep(0.1)
        with pytest.raises(TimedOut):
            await asyncio.wait_for(client.delete_webhook(), timeout=10)
        release.set()
        assert await first is True
    finally:
        release.set()
        await request.shutdown()
        await runner.cleanup()
