"""``asking.batch._lines``: a batch file's rows, read one at a time."""

from __future__ import annotations

import json

from shape_asserts.asking.batch import _lines


def test_every_row_comes_back_whole_and_in_order():
    rows = [{"custom_id": f"m/c{i}/ru/0", "text": "x" * i} for i in range(5)]
    content = "".join(json.dumps(r) + "\n" for r in rows).encode()
    assert [json.loads(line) for line in _lines(content)] == rows


def test_crlf_a_missing_final_newline_and_a_line_separator_inside_a_string():
    # U+2028 is legal inside a JSON string: splitlines() cut such a row in two
    row = json.dumps({"custom_id": "a", "text": "one\u2028two"}, ensure_ascii=False)
    content = (row + "\r\n" + row).encode()
    assert [json.loads(line)["text"] for line in _lines(content)] == ["one\u2028two"] * 2


def test_bad_utf8_is_replaced_not_raised():
    assert list(_lines(b'{"a": "\xff"}\n')) == ['{"a": "\ufffd"}']
