"""Which build of the engine is running: mypyc's C extension (``setup.py``) or the plain sources.

The extension modules sit next to their ``.py`` files and win the import, so a source edited after
the last install would silently not run: ``stale_modules`` finds those.
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import round


def compiled() -> bool:
    return not str(round.__file__).endswith(".py")


def stale_modules() -> list[str]:
    """Imported engine modules whose ``.py`` changed after they were compiled."""
    stale = []
    for name, module in list(sys.modules.items()):
        built = Path(str(getattr(module, "__file__", "")))
        if not name.startswith("engine.") or built.suffix != ".so":
            continue
        source = built.with_name(built.name.partition(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
            stale.append(name)
    return sorted(stale)


def describe() -> str:
    """One line for the benchmark and the logs."""
    if not compiled():
        return "engine: plain Python (no C compiler, or KOZEL_PURE_PYTHON=1 at install)"
    stale = stale_modules()
    if stale:
        return f"engine: compiled, but STALE (reinstall): {', '.join(stale)} changed since"
    return "engine: compiled by mypyc"
