"""Answer length: the longest built-in answer, in characters and in rough tokens, against ``--max-tokens``.

The default ``--max-tokens`` (:data:`shape_asserts.defaults.MAX_TOKENS`) must fit the longest
answer a built-in case asks for, with room for what real models add (prose, a fence, indentation).
This measures the reference drawers' answers (the ideal drawing, and the noisy one with its prose)
for every built-in case and estimates tokens as characters / 3 (JSON of digits and punctuation
tokenises at roughly 2.5-4 characters a token in common tokenizers).

    python bench/answer_tokens.py
"""

from __future__ import annotations

from shape_asserts.asking.reference import answer_text
from shape_asserts.cases import builtin_cases
from shape_asserts.defaults import MAX_TOKENS

CHARS_PER_TOKEN = 3


def main() -> None:
    rows = sorted(
        (len(answer_text(case, style, 0)), case.id, style) for case in builtin_cases() for style in ("exact", "noisy")
    )
    chars, case_id, style = rows[-1]
    tokens = chars / CHARS_PER_TOKEN
    print(f"built-in cases: {len(rows) // 2}")
    print(f"longest answer: {chars:,} characters ({case_id}, reference/{style}) ~ {tokens:,.0f} tokens")
    print(f"--max-tokens default: {MAX_TOKENS:,} = {MAX_TOKENS / tokens:.1f} x the longest answer")


if __name__ == "__main__":
    main()
