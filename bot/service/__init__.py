"""Table operations: the only path from a person's intent to the engine and the database.

``TableService`` hands each kind of work to a small collaborator: ``store`` keeps the tables and
their locks, ``lobby`` seats people, ``player`` plays, ``finisher`` records a match that ended,
``timeouts`` keeps time, ``messages`` remembers which messages show a table, and ``records``
keeps people, groups and standings. Every table operation is called with the table's lock held
(``store.lock``), so a table sees one change at a time.
"""

from __future__ import annotations

import random

from storage import Storage

from ..settings import Settings
from .errors import DamagedTable, Refusal
from .finish import Finisher
from .lobby import Lobby
from .messages import MessageIds
from .play import Player
from .records import Records
from .store import TableStore
from .thinking import Thinker
from .timeouts import Timeouts

__all__ = ["DamagedTable", "Refusal", "TableService"]


class TableService:
    def __init__(
        self,
        storage: Storage,
        settings: Settings,
        rng: random.Random | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.store = TableStore(storage, settings)
        self.lobby = Lobby(storage, settings, self.store)
        self.finisher = Finisher(storage, self.store)
        self.player = Player(
            storage,
            self.store,
            self.finisher,
            rng or random.SystemRandom(),
            thinker or Thinker(settings.computer_workers),
        )
        self.timeouts = Timeouts(storage, settings, self.store, self.player)
        self.messages = MessageIds(storage)
        self.records = Records(storage)

    def close(self) -> None:
        """Stop the computer players' workers."""
        self.player.thinker.close()
