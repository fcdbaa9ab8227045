"""The presenter's parts with a real table service behind them, and no Telegram."""

from tests.bot.service.conftest import service, settings, storage

__all__ = ["service", "settings", "storage"]
