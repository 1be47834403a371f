"""``python -m shape_asserts.plugin --markdown``: the README's options table (see :mod:`.options`)."""

from __future__ import annotations

import sys

from shape_asserts.plugin.options import main

sys.exit(main())
