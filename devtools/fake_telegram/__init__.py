"""A fake Telegram Bot API server, for end-to-end tests and benchmarks of the bot.

The real python-telegram-bot ``Application`` (polling or webhook) talks to it over HTTP on
127.0.0.1, exactly as it would talk to ``api.telegram.org``. The server keeps the state a user
would see (the bot's messages with their current text and keyboard, callback answers,
registered commands) and models the Telegram behaviours that break bots in production:

* 403 for users who never pressed Start, who blocked the bot or deleted their account, and for
  groups the bot was removed from (with ``my_chat_member`` updates, ``actions``); 400 for
  groups where it may no longer send messages (``world``);
* 400 for unchanged edits, unknown chats and messages, invalid ``callback_data``, too long or
  empty texts, and HTML that Telegram cannot parse (``text``, ``html``: TDLib's parser);
* 429 flood control, injected by the test or enforced for groups, edits included (``flood``);
* group to supergroup migration, and privacy mode in groups (``actions``);
* forums: topics with ``message_thread_id``, closed ones refusing new messages and edits with
  ``TOPIC_CLOSED`` (unless the bot is an admin that may manage topics), deleted ones with
  "message thread not found", and their service messages (``world``, ``actions``);
* getUpdates long polling and webhooks (``updates``).

Typical use::

    async with FakeTelegram() as server:
        app = server.configure(ApplicationBuilder()).build()
        app.add_handler(CommandHandler("ping", ping))
        alice = server.user(1, "Alice")
        async with app:
            await app.start()
            await app.updater.start_polling(poll_interval=0, timeout=1)
            await server.send_text(alice, alice, "/ping")
            await server.wait_for(lambda: server.messages(alice))
            await app.updater.stop()
            await app.stop()

Everything runs on the test's event loop; no threads. Waiting helpers (``wait_for``,
``wait_for_message``, ``wait_idle``) wake up whenever the server handles a request or an
update is injected, so tests never need fixed sleeps.
"""

from .html import EntityParseError, parse_html, utf16_len
from .objects import CallbackAnswer, FakeChat, FakeMessage, FakeTopic, FakeUser, RecordedCall
from .server import DEFAULT_TOKEN, FakeTelegram

__all__ = [
    "DEFAULT_TOKEN",
    "CallbackAnswer",
    "EntityParseError",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeTopic",
    "FakeUser",
    "RecordedCall",
    "parse_html",
    "utf16_len",
]
