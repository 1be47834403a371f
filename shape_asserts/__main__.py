"""`python -m shape_asserts`: the same command as `shape-asserts`."""

from __future__ import annotations

from shape_asserts.cli import main

raise SystemExit(main())
