"""Which case a prompt asks: an explicit index from prompt text to case."""

from __future__ import annotations

from collections.abc import Iterable

from shape_asserts.cases.model import Case

__all__ = ["CaseIndex"]


class CaseIndex:
    """Cases by the exact text of each of their prompts (every language); the first case wins.

    Built from the cases it is given and nothing else: whoever needs to answer prompts (the
    reference drawers) says which cases it answers.

    Examples
    --------
    >>> from shape_asserts.cases import builtin_cases
    >>> index = CaseIndex(builtin_cases())
    >>> seed = builtin_cases()[0]
    >>> index.find(seed.prompt("en")).id == seed.id
    True
    >>> index.find("Draw an elephant.") is None
    True
    """

    def __init__(self, cases: Iterable[Case] = ()) -> None:
        self._by_prompt: dict[str, Case] = {}
        self.add(cases)

    def add(self, cases: Iterable[Case]) -> None:
        """Index ``cases`` too (a prompt already indexed keeps its first case)."""
        for case in cases:
            for text in case.prompts.values():
                self._by_prompt.setdefault(text, case)

    def find(self, prompt: str) -> Case | None:
        """The case whose prompt is exactly ``prompt``, or None."""
        return self._by_prompt.get(prompt)

    def __len__(self) -> int:
        return len(self._by_prompt)
