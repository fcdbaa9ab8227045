"""``python -m engine selfplay|arena ...``: see ``engine.cli``."""

import os
import sys

from .cli import main

try:
    code = main()
    sys.stdout.flush()
except BrokenPipeError:
    # The reader went away (``| head``): stop quietly. Python would flush stdout again at exit
    # and fail the same way, so point it at /dev/null first.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    code = 1
sys.exit(code)
