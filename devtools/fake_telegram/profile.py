"""The Bot API methods about the bot itself: getMe, its command menus, name and descriptions."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from .errors import bad_request
from .objects import BotAccount, JSONDict
from .params import Params

Handler = Callable[[Params], Any]

MAX_COMMANDS: Final = 100
_BOT_COMMAND_NAME_RE: Final = re.compile(r"^[a-z0-9_]{1,32}$")
_SCOPE_TYPES: Final = frozenset(
    {
        "default",
        "all_private_chats",
        "all_group_chats",
        "all_chat_administrators",
        "chat",
        "chat_administrators",
        "chat_member",
    }
)


class ProfileMethods:
    """getMe, set/get/deleteMyCommands, set/getMy(Short)Description and set/getMyName.

    ``commands``: ``(scope key, language_code) -> [{"command", "description"}]``; the scope key
    is the scope type (``"default"``, ``"all_group_chats"``...) with ``:<chat_id>`` /
    ``:<user_id>`` appended for chat scopes; language ``""`` means all languages.
    ``bot_texts``: ``(kind, language_code) -> text`` for the name and descriptions.
    """

    def __init__(self, bot: BotAccount) -> None:
        self.bot = bot
        self.commands: dict[tuple[str, str], list[JSONDict]] = {}
        self.bot_texts: dict[tuple[str, str], str] = {}

    def methods(self) -> dict[str, Handler]:
        return {
            "getMe": self._get_me,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "setMyName": self._set_bot_text("name"),
            "getMyName": self._get_bot_text("name"),
            "setMyDescription": self._set_bot_text("description"),
            "getMyDescription": self._get_bot_text("description"),
            "setMyShortDescription": self._set_bot_text("short_description"),
            "getMyShortDescription": self._get_bot_text("short_description"),
            "close": self._true,
            "logOut": self._true,
        }

    def command_names(self, scope: str = "default", language_code: str = "") -> list[str]:
        """Commands registered for a scope key and language (see :attr:`commands`)."""
        return [c["command"] for c in self.commands.get((scope, language_code), [])]

    async def _true(self, params: Params) -> bool:
        return True

    async def _get_me(self, params: Params) -> JSONDict:
        return {
            **self.bot.user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.bot.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def _command_key(self, params: Params) -> tuple[str, str]:
        scope = params.get("scope") or {"type": "default"}
        if not isinstance(scope, dict) or scope.get("type") not in _SCOPE_TYPES:
            raise bad_request("BOT_COMMAND_SCOPE_INVALID")
        key = str(scope["type"])
        if "chat_id" in scope:
            key += f":{scope['chat_id']}"
        if "user_id" in scope:
            key += f":{scope['user_id']}"
        language = params.opt_str("language_code") or ""
        if language and not re.fullmatch(r"[a-z]{2}", language):
            raise bad_request("LANG_CODE_INVALID")
        return key, language

    async def _set_my_commands(self, params: Params) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise bad_request("can't parse commands JSON object")
        if len(commands) > MAX_COMMANDS:
            raise bad_request("BOT_COMMANDS_TOO_MUCH")
        for command in commands:
            name = command.get("command") if isinstance(command, dict) else None
            description = command.get("description") if isinstance(command, dict) else None
            if not isinstance(name, str) or not _BOT_COMMAND_NAME_RE.match(name):
                raise bad_request("BOT_COMMAND_INVALID")
            if not isinstance(description, str) or not 1 <= len(description) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        key = self._command_key(params)
        if commands:
            self.commands[key] = [
                {"command": c["command"], "description": c["description"]} for c in commands
            ]
        else:
            self.commands.pop(key, None)
        return True

    async def _get_my_commands(self, params: Params) -> list[JSONDict]:
        return [dict(c) for c in self.commands.get(self._command_key(params), [])]

    async def _delete_my_commands(self, params: Params) -> bool:
        self.commands.pop(self._command_key(params), None)
        return True

    def _set_bot_text(self, kind: str) -> Handler:
        async def handler(params: Params) -> bool:
            value = params.opt_str(kind) or ""
            limit = {"name": 64, "description": 512, "short_description": 120}[kind]
            if len(value) > limit:
                raise bad_request(f"{kind.upper()}_INVALID")
            language = params.opt_str("language_code") or ""
            if value:
                self.bot_texts[(kind, language)] = value
            else:
                self.bot_texts.pop((kind, language), None)
            return True

        return handler

    def _get_bot_text(self, kind: str) -> Handler:
        async def handler(params: Params) -> JSONDict:
            language = params.opt_str("language_code") or ""
            value = self.bot_texts.get((kind, language), "")
            if kind == "name" and not value:
                value = self.bot.first_name
            return {kind: value}

        return handler
