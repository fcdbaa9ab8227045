"""The Bot API methods about chats: who is a member or an admin, the chat itself, actions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .errors import bad_request
from .objects import BotAccount, FakeChat, JSONDict
from .params import Params
from .world import World

_CHAT_ACTIONS: Final = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)

_ADMIN_RIGHTS: Final[JSONDict] = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_pin_messages": True,
    "can_manage_topics": False,
}


class ChatMethods:
    """getChatMember, getChatAdministrators, getChat and sendChatAction (kept in
    ``chat_actions`` as ``(chat_id, action)``)."""

    def __init__(self, world: World, bot: BotAccount) -> None:
        self.world = world
        self.bot = bot
        self.chat_actions: list[tuple[int, str]] = []

    def methods(self) -> dict[str, Callable[[Params], Any]]:
        return {
            "getChatMember": self._get_chat_member,
            "getChatAdministrators": self._get_chat_administrators,
            "getChat": self._get_chat,
            "sendChatAction": self._send_chat_action,
        }

    def _member(self, chat: FakeChat, user_id: int) -> JSONDict:
        if user_id == self.bot.id:
            user = self.bot.user
        elif user_id in self.world.users:
            user = self.world.users[user_id].to_dict()
        else:
            raise bad_request("user not found")
        if chat.type == "private":
            if user_id not in (chat.id, self.bot.id):
                raise bad_request("user not found")
            return {"status": "member", "user": user}
        if self.world.creators.get(chat.id) == user_id:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in self.world.admins[chat.id]:
            manages_topics = user_id in self.world.topic_managers[chat.id]
            rights = {**_ADMIN_RIGHTS, "can_manage_topics": manages_topics}
            return {"status": "administrator", "user": user, **rights}
        if user_id == self.bot.id or user_id in self.world.members[chat.id]:
            return {"status": "member", "user": user}
        return {"status": "left", "user": user}

    async def _get_chat_member(self, params: Params) -> JSONDict:
        chat = self.world.resolve_chat(params)
        return self._member(chat, params.req_int("user_id"))

    async def _get_chat_administrators(self, params: Params) -> list[JSONDict]:
        chat = self.world.resolve_chat(params)
        if chat.type == "private":
            raise bad_request("there are no administrators in the private chat")
        ids: list[int] = []
        if chat.id in self.world.creators:
            ids.append(self.world.creators[chat.id])
        ids.extend(sorted(self.world.admins[chat.id] - set(ids)))
        known = [i for i in ids if i in self.world.users or i == self.bot.id]
        return [self._member(chat, user_id) for user_id in known]

    async def _get_chat(self, params: Params) -> JSONDict:
        chat = self.world.resolve_chat(params)
        info = chat.to_dict()
        info.update(
            {
                "accent_color_id": 0,
                "max_reaction_count": 11,
                "accepted_gift_types": {
                    "unlimited_gifts": False,
                    "limited_gifts": False,
                    "unique_gifts": False,
                    "premium_subscription": False,
                    "gifts_from_channels": False,
                },
            }
        )
        if chat.migrated_from is not None:
            info["migrated_from_chat_id"] = chat.migrated_from
        return info

    async def _send_chat_action(self, params: Params) -> bool:
        chat = self.world.writable_chat(params)
        action = params.opt_str("action") or ""
        if action not in _CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        self.chat_actions.append((chat.id, action))
        return True
