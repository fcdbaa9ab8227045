"""``python -m engine selfplay ...``: see ``engine.selfplay``."""

import sys

from .selfplay import main

sys.exit(main())
