"""The matched circles' checks merged into one check per name (:func:`merge_circles`): those of
circles :func:`.passing.passing_circles` measured (:class:`Passing`) and those of circles
:func:`.circle.score_circle` scored."""

from __future__ import annotations

from typing import NamedTuple

from shape_asserts.geometry.contours import Contour
from shape_asserts.geometry.score import Check, fmt_value
from shape_asserts.geometry.scorecard import Scorecard

__all__ = ["Row", "Passing", "merge_circles"]


#: One circle's check as :func:`merge_circles` reads it: name, passed, margin, limit, and the check itself
#: where the circle was scored by :func:`.circle.score_circle` (``None``: a check it passed, of a
#: circle :func:`.passing.passing_circles` measured).
Row = tuple[str, bool, float | None, str, Check | None]


class Passing(NamedTuple):
    """A circle that passes every check :func:`.circle.score_circle` makes of it (``bounds`` left
    out): its seed score, its roundness metric, and each check's name and limit (``checks``: one
    list shared by the circles asked the same checks) and margin, in that function's order (a
    named tuple: made once per circle of every answer, cheaper than a frozen dataclass)."""

    seed: float
    roundness: float
    checks: list[tuple[str, str]]
    margins: list[float | None]

    def rows(self) -> list[Row]:
        """The checks as :func:`merge_circles` reads them (each passed)."""
        return [(name, True, m, limit, None) for (name, limit), m in zip(self.checks, self.margins)]


def merge_circles(card: Scorecard, per: list[tuple[str, Passing | list[Row], Contour]], skip: set[str]) -> None:
    """Add one check per name over all circles: passes when every circle's does.

    ``per``: each circle's label, its checks (a :class:`Passing`, or the rows of those
    :func:`.circle.score_circle` made) and its contour, in the drawing's order."""
    # every circle passing the same checks (the common case): each name's least margin over the circles
    shared = per[0][1] if per else None
    if isinstance(shared, Passing) and all(isinstance(p, Passing) and p.checks is shared.checks for _, p, _ in per):
        columns = zip(*[p.margins for _, p, _ in per if isinstance(p, Passing)])  # (each a Passing: mypy)
        for (name, limit), margins in zip(shared.checks, columns):
            if name in skip:
                continue
            least: float | None = None  # (``min`` of those there are: the first of equals)
            for m in margins:
                if m is not None and (least is None or m < least):
                    least = m
            card.add(name, True, f"all {len(per)} pass", limit + " each", "", (), least)
        return
    # each name's checks over all circles, in one pass (names in the order they first appear)
    by_name: dict[str, list[tuple[str, Row, Contour]]] = {}
    for label, checks, contour in per:
        for row in checks.rows() if isinstance(checks, Passing) else checks:
            if row[0] not in skip:
                by_name.setdefault(row[0], []).append((label, row, contour))
    for name, rows in by_name.items():
        # the least margin (``min`` of those there are: the first of equals), and whether all pass
        least = None
        passed = True
        for _, (_, ok, m, _, _), _ in rows:
            if m is not None and (least is None or m < least):
                least = m
            passed = passed and ok
        limit = rows[0][1][3] + " each"
        if passed:  # (no detail and no indices to gather)
            card.add(name, True, f"all {len(rows)} pass", limit, "", (), least)
            continue
        # (a failed check is one score_circle made: its circle failed it)
        bad = [(label, c, contour) for label, (_, ok, _, _, c), contour in rows if not ok and c is not None]
        detail = "; ".join(
            f"{label}: {fmt_value(c.value)}" + (f" ({c.detail})" if c.detail else "") for label, c, _ in bad
        )
        idx = tuple(sorted({contour.start + i for _, c, contour in bad for i in c.indices}))
        card.add(name, False, f"{len(bad)} of {len(rows)} circles failed", limit, detail, idx, least)
