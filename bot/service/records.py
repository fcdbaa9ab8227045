"""People, groups and their standings: what the bot notes and reads outside any one table."""

from __future__ import annotations

from telegram import Chat, Message, User

from storage import PastMatch, RecentMatch, StandingRow, Storage, UserRecord

from ..place import Place


class Records:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def remember_user(self, user: User) -> None:
        await self.storage.upsert_user(user.id, user.full_name, user.username, user.language_code)

    async def remember_chat(self, chat: Chat) -> None:
        await self.storage.upsert_chat(chat.id, chat.title or chat.full_name or "", chat.type)

    async def user_name(self, user_id: int) -> str | None:
        user = await self.storage.get_user(user_id)
        return None if user is None else user.display_name

    async def name_topic(self, place: Place, name: str, *, guess: bool = False) -> None:
        """Note a forum topic's name; a ``guess`` only where none is known."""
        assert place.thread_id is not None
        await self.storage.name_topic(place.chat_id, place.thread_id, name, known_wins=guess)

    async def guess_topic(self, place: Place, message: Message) -> None:
        """A message in a topic that replies to nothing else replies, as Telegram sends it, to
        the message that created the topic, which carries the name it was created with: a topic
        created before the bot joined, whose service messages it never saw, goes by that name
        until it is renamed (a rename from before the bot joined stays unknown to it)."""
        created = message.reply_to_message
        if (
            place.thread_id is not None
            and created is not None
            and created.message_id == place.thread_id
            and created.forum_topic_created is not None
        ):
            await self.name_topic(place, created.forum_topic_created.name, guess=True)

    async def standings(
        self, chat_id: int, game: str, offset: int, limit: int
    ) -> tuple[list[StandingRow], int]:
        """A page of the group's standings of all time in ``game``, and how many players
        there are."""
        rows = await self.storage.chat_standings(chat_id, limit=limit, offset=offset, game=game)
        return rows, await self.players(chat_id, game)

    async def players(self, chat_id: int, game: str) -> int:
        """How many people the group's standings in ``game`` list."""
        return await self.storage.count_chat_players(chat_id, game=game)

    async def games_played(self, chat_id: int) -> list[str]:
        """The games the group has finished matches of, the latest played first."""
        return await self.storage.chat_games(chat_id)

    async def history(self, chat_id: int, limit: int = 10) -> list[PastMatch]:
        """The group's latest matches with a result, newest first."""
        return await self.storage.chat_history(chat_id, limit)

    async def player(self, user_id: int, recent: int) -> tuple[UserRecord, list[RecentMatch]]:
        """A person's record in every group and game, and their latest matches."""
        record = await self.storage.user_record(user_id)
        return record, await self.storage.recent_matches(user_id, limit=recent)
