"""Compiles the engine's rules modules with mypyc; everything else lives in pyproject.toml.

mypyc turns these already ``mypy --strict`` modules into a C extension, which makes random self-play
about twice as fast (``benchmarks/bench_engine.py``) and the strong computer player's decisions,
which play out many matches, about 30% quicker (``benchmarks/bench_ai.py``).
The ``.py`` files stay the one source, written for readers, not for the compiler: a module is
listed here only if it compiles as written. Without a C compiler, or with ``KOZEL_PURE_PYTHON=1``,
the same modules run as plain Python and behave the same (``tests/engine/test_compiled.py``
checks both builds against each other).

Interpreted: ``rules.py`` and ``revisions.py`` (the tests swap rule code and revisions at run time,
and ``rules.py`` reads its own ``Literal`` annotations, which mypyc erases), and the modules the bot
calls once per match or per message. ``match.py`` is compiled: it sets the fields that are not
``__init__`` arguments in ``__post_init__``, as mypyc leaves their defaults unset.
"""

import os

from setuptools import Extension, setup

COMPILED = [
    "engine/tiles.py",
    "engine/layout.py",
    "engine/line.py",
    "engine/cross.py",
    "engine/actions.py",
    "engine/events.py",
    "engine/deal.py",
    "engine/leads.py",
    "engine/seats.py",
    "engine/round.py",
    "engine/match.py",
    "engine/scoring/tally.py",
    "engine/scoring/kozel.py",
    "engine/scoring/lightest.py",
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
