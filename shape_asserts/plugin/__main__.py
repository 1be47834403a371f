"""``python -m shape_asserts.plugin --markdown``: the README's options table (see :mod:`.options_table`)."""

from __future__ import annotations

import sys

from shape_asserts.plugin.options_table import main

sys.exit(main())
