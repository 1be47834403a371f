"""Replies read to a bound, and calls given a deadline (shape_asserts.asking.bounded), for the sync
client litellm's batch and file calls use. (The async client's: tests/integration/test_faults.py.)"""

from __future__ import annotations

import gzip
import time

import httpx
import pytest

from shape_asserts.asking import bounded
from shape_asserts.asking.bounded import Deadlined, ReplyCut, ReplyTooLarge, TooSlow, _BoundedSync, within


def _client(reply: httpx.Response, monkeypatch: pytest.MonkeyPatch, limit: int = 1000) -> httpx.Client:
    monkeypatch.setattr(bounded, "MAX_FILE_BYTES", limit)
    return httpx.Client(transport=_BoundedSync(httpx.MockTransport(lambda request: reply)))


def test_a_gzip_reply_within_the_bound_is_read_decoded(monkeypatch):
    body = gzip.compress(b'{"ok": true}')
    client = _client(
        httpx.Response(200, headers={"Content-Encoding": "gzip"}, stream=httpx.ByteStream(body)), monkeypatch
    )
    assert client.get("http://x/v1/files/f/content").json() == {"ok": True}


@pytest.mark.parametrize("encoding", ["gzip", "identity"])
def test_a_reply_past_the_bound_is_refused_while_it_is_read(monkeypatch, encoding):
    """Red-team sweep 48: a batch's output file was read whole and decompressed without a bound: a
    1 MB gzip reply of whitespace took the run to 2.4 GB."""
    raw = b" " * 100_000
    body = gzip.compress(raw) if encoding == "gzip" else raw
    client = _client(
        httpx.Response(200, headers={"Content-Encoding": encoding}, stream=httpx.ByteStream(body)), monkeypatch
    )
    with pytest.raises(ReplyTooLarge, match="ran past 1,000 bytes"):
        client.get("http://x/v1/files/f/content")


def test_an_encoding_not_read_here_is_refused(monkeypatch):
    client = _client(
        httpx.Response(200, headers={"Content-Encoding": "br"}, stream=httpx.ByteStream(b"x")), monkeypatch
    )
    with pytest.raises(ReplyTooLarge, match="encoded as 'br'"):
        client.get("http://x/v1/files/f/content")


def test_a_successful_reply_whose_compressed_body_is_corrupt_is_cut_not_retried(monkeypatch):
    body = gzip.compress(b"x" * 500)[:10] + b"\xff" * 20  # a gzip header, then no deflate stream
    client = _client(
        httpx.Response(200, headers={"Content-Encoding": "gzip"}, stream=httpx.ByteStream(body)), monkeypatch
    )
    with pytest.raises(ReplyCut, match="could not be decoded"):
        client.get("http://x/v1/files/f/content")


def test_a_call_past_its_deadline_is_too_slow_and_does_not_hold_the_caller():
    """Red-team sweep 48: a sync client's timeout bounds each read, so a server sending a byte a
    second held a batch run past --request-timeout and --batch-wait."""
    started = time.monotonic()
    with pytest.raises(TooSlow, match="within 0.2 s"):
        within(0.2, time.sleep, 30)
    assert time.monotonic() - started < 5


def test_a_call_within_its_deadline_gives_its_value_or_its_error():
    assert within(5, sum, [1, 2, 3]) == 6
    with pytest.raises(ZeroDivisionError):
        within(5, lambda: 1 / 0)


def test_a_deadlined_module_gives_each_of_its_functions_the_deadline():
    class Module:
        @staticmethod
        def retrieve_batch(batch_id: str) -> str:
            time.sleep(30)
            return batch_id

        @staticmethod
        def file_content(file_id: str) -> str:
            return file_id

    calls = Deadlined(Module, 0.2)
    assert calls.file_content("f") == "f"
    with pytest.raises(TooSlow):
        calls.retrieve_batch("b")
