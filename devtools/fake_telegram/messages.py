"""The Bot API methods that send, edit and delete messages, and answer button presses."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from .errors import (
    ERR_BLOCKED,
    ERR_DELETE_NOT_FOUND,
    ERR_EDIT_NOT_FOUND,
    ERR_NOT_MODIFIED,
    ERR_QUERY_INVALID,
    ERR_TOPIC_CLOSED,
    ApiError,
    bad_request,
)
from .flood import FloodControl
from .objects import BotAccount, CallbackAnswer, FakeChat, FakeMessage, JSONDict
from .params import Params, loose_int
from .text import formatted_text, markup_key, validate_markup
from .world import World

MAX_CALLBACK_ANSWER_LENGTH: Final = 200


class MessageMethods:
    """sendMessage, editMessageText/ReplyMarkup, deleteMessage and answerCallbackQuery.

    ``strict_html`` and ``text_limit_utf16``: see ``FakeTelegram``.
    """

    def __init__(
        self,
        world: World,
        bot: BotAccount,
        flood: FloodControl,
        *,
        strict_html: bool,
        text_limit_utf16: bool,
    ) -> None:
        self.world = world
        self.bot = bot
        self.flood = flood
        self.strict_html = strict_html
        self.text_limit_utf16 = text_limit_utf16

    def methods(self) -> dict[str, Callable[[Params], Any]]:
        return {
            "sendMessage": self._send_message,
            "editMessageText": self._edit_message_text,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "deleteMessage": self._delete_message,
            "answerCallbackQuery": self._answer_callback_query,
        }

    def _text(self, params: Params) -> tuple[str, list[JSONDict]]:
        return formatted_text(
            params.opt_str("text"),
            params.opt_str("parse_mode"),
            params.get("entities"),
            strict_html=self.strict_html,
            utf16=self.text_limit_utf16,
        )

    async def _send_message(self, params: Params) -> JSONDict:
        chat = self.world.writable_chat(params)
        text, entities = self._text(params)
        markup = validate_markup(params.get("reply_markup"), inline_only=False)
        thread_id = params.opt_int("message_thread_id")
        extra: JSONDict = {}
        reply = params.get("reply_parameters")
        reply_id = params.opt_int("reply_to_message_id")
        allow_without = params.flag("allow_sending_without_reply")
        if isinstance(reply, dict):
            reply_id = loose_int(reply.get("message_id"))
            allow_without = bool(reply.get("allow_sending_without_reply"))
        if reply_id is not None:
            replied = self.world.find(chat.id, reply_id)
            if replied is not None and not replied.deleted:
                extra["reply_to_message"] = replied.to_dict()
                if thread_id is None:  # a reply goes to the topic of the message it answers
                    thread_id = replied.thread_id
            elif not allow_without:
                raise bad_request("message to be replied not found")
        self.world.writable_thread(chat, thread_id, may_write_closed=self._manages_topics(chat))
        self.flood.check_group(chat)
        options = {
            k: v
            for k, v in params.data.items()
            if k not in ("chat_id", "text", "parse_mode", "entities", "reply_markup")
        }
        message = self.world.store_message(
            chat,
            self.bot.user,
            from_bot=True,
            text=text,
            entities=entities,
            reply_markup=markup,
            raw_text=params.opt_str("text"),
            parse_mode=params.opt_str("parse_mode"),
            extra=extra,
            options=options,
            thread_id=thread_id,
        )
        self.flood.sent(chat.id, message.sent_at)
        return message.to_dict()

    def _manages_topics(self, chat: FakeChat) -> bool:
        """Whether the bot may write in ``chat``'s closed topics: as an admin with the
        can_manage_topics right (``World.topic_managers``)."""
        manages = self.bot.id in self.world.topic_managers[chat.id]
        return manages and self.world.is_admin(chat, self.bot.id)

    def _editable(self, params: Params) -> FakeMessage:
        if params.has("inline_message_id"):
            raise bad_request("inline messages are not supported by the fake server")
        chat = self.world.resolve_chat(params)
        if chat.type == "private" and chat.id in self.world.blocked:
            raise ApiError(403, ERR_BLOCKED)
        message_id = params.opt_int("message_id")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        message = self.world.find(chat.id, message_id)
        if message is None or message.deleted:
            raise ApiError(400, ERR_EDIT_NOT_FOUND)
        if not message.from_bot:
            raise bad_request("message can't be edited")
        topic = None if message.thread_id is None else self.world.topic(chat, message.thread_id)
        if topic is not None and topic.closed and not self._manages_topics(chat):
            raise ApiError(400, ERR_TOPIC_CLOSED)  # assumed: Telegram does not document it
        self.flood.check_group(chat)  # edits share a group's limit with new messages
        return message

    def _apply_edit(
        self,
        message: FakeMessage,
        *,
        text: str | None,
        entities: list[JSONDict],
        markup: JSONDict | None,
        raw_text: str | None,
        parse_mode: str | None,
    ) -> JSONDict:
        unchanged = (
            text == message.text
            and entities == message.entities
            and markup_key(markup) == markup_key(message.reply_markup)
        )
        if unchanged:
            raise ApiError(400, ERR_NOT_MODIFIED)
        if text != message.text and message.text is not None:
            message.history.append(message.text)
        message.text = text
        message.entities = entities
        message.reply_markup = markup
        message.raw_text = raw_text
        message.parse_mode = parse_mode
        message.edited += 1
        message.edit_date = int(time.time())
        self.flood.sent(message.chat.id, self.flood.clock())
        return message.to_dict()

    async def _edit_message_text(self, params: Params) -> JSONDict:
        message = self._editable(params)
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        text, entities = self._text(params)
        markup = validate_markup(params.get("reply_markup"), inline_only=True)
        return self._apply_edit(
            message,
            text=text,
            entities=entities,
            markup=markup,
            raw_text=params.opt_str("text"),
            parse_mode=params.opt_str("parse_mode"),
        )

    async def _edit_message_reply_markup(self, params: Params) -> JSONDict:
        message = self._editable(params)
        markup = validate_markup(params.get("reply_markup"), inline_only=True)
        return self._apply_edit(
            message,
            text=message.text,
            entities=message.entities,
            markup=markup,
            raw_text=message.raw_text,
            parse_mode=message.parse_mode,
        )

    async def _delete_message(self, params: Params) -> bool:
        chat = self.world.resolve_chat(params)
        message = self.world.find(chat.id, params.opt_int("message_id"))
        if message is None or message.deleted:
            raise ApiError(400, ERR_DELETE_NOT_FOUND)
        if not message.from_bot and chat.type != "private":
            is_admin = self.bot.id in self.world.admins[chat.id]
            if not is_admin:
                raise bad_request("message can't be deleted")
        message.deleted = True
        return True

    async def _answer_callback_query(self, params: Params) -> bool:
        text = params.opt_str("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise bad_request("MESSAGE_TOO_LONG")
        query_id = params.opt_str("callback_query_id") or ""
        if query_id not in self.world.pending_queries:
            raise ApiError(400, ERR_QUERY_INVALID)
        del self.world.pending_queries[query_id]
        self.world.callback_answers[query_id] = CallbackAnswer(
            query_id=query_id,
            text=text or None,
            show_alert=params.flag("show_alert"),
            url=params.opt_str("url"),
            cache_time=params.opt_int("cache_time"),
        )
        return True
