"""Compiles the engine's hot path with mypyc; everything else lives in pyproject.toml.

mypyc turns these already ``mypy --strict`` modules into a C extension, which is what makes random
self-play fast (``benchmarks/bench_engine.py``). The ``.py`` files stay the one source: without a C
compiler, or with ``KOZEL_PURE_PYTHON=1``, the same modules are used as plain Python and behave the
same (``tests/engine/test_compiled.py`` checks both builds against each other).

``rules.py`` stays interpreted: it reads its own ``Literal`` annotations at run time, which mypyc
erases. So do the modules the bot calls once per match or per message.
"""

import os

from setuptools import Extension, setup

COMPILED = [
    "engine/tiles.py",
    "engine/line.py",
    "engine/actions.py",
    "engine/events.py",
    "engine/deal.py",
    "engine/leads.py",
    "engine/seats.py",
    "engine/round.py",
    "engine/match.py",
    "engine/scoring/kozel.py",
]


def ext_modules() -> list[Extension]:
    if os.environ.get("KOZEL_PURE_PYTHON"):
        return []
    from mypyc.build import mypycify  # noqa: PLC0415 - a build requirement, only needed here

    extensions: list[Extension] = mypycify(COMPILED, opt_level="3")
    for extension in extensions:
        extension.optional = True  # no C compiler: a warning, and the pure-Python engine
    return extensions


setup(ext_modules=ext_modules())
