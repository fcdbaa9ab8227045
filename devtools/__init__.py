"""Tools for developing the bot (a fake Telegram for tests and benchmarks); not shipped."""
