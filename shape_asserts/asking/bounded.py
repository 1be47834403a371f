"""Replies read to a bound: whatever a server sends, compressed or not, a reply takes at most
:data:`MAX_REPLY_BYTES` of memory once decoded.

An OpenAI-compatible server's body is read whole before litellm sees it, and decompressed as it is
read: a reply of a megabyte sent with ``Content-Encoding: gzip`` inflated to a gigabyte took 4.3 GB
of memory for one case. :func:`install` wraps the transports litellm makes for its HTTP clients:
their replies are decoded here, a chunk at a time, and refused past the bound
(:class:`ReplyTooLarge`: a delivered reply, not asked again). A successful reply whose body breaks
off (the connection dropped half-way) was delivered too: the answer was generated and may be
billed, so it is :class:`ReplyCut`, not the connection error litellm would retry.

litellm's batch and file calls go through a sync client, bounded the same way (to
:data:`MAX_FILE_BYTES`: a batch's output file holds all its answers); its timeout bounds each read,
not the call, so each of those calls is also given a deadline (:class:`Deadlined`).
"""

from __future__ import annotations

import functools
import threading
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_REPLY_BYTES",
    "Deadlined",
    "ReplyCut",
    "ReplyTooLarge",
    "TooSlow",
    "install",
    "within",
]

#: The most a reply's body may hold once decoded: an answer of a million tokens is about 4 MB.
MAX_REPLY_BYTES = 32 * 2**20
#: ... and a batch's file (litellm's sync client reads only files and batches): a batch's output
#: holds every answer of the batch, 3,120 of them a few kilobytes each in a benchmark of ten
#: samples; a file past this is not read (the batch is kept, its answers not recorded).
MAX_FILE_BYTES = 256 * 2**20

#: The encodings a reply may come in, and how zlib reads each (``gzip`` or a zlib stream).
_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}


class ReplyTooLarge(Exception):
    """A server's reply ran past :data:`MAX_REPLY_BYTES` decoded, or came in an encoding not read here."""


class ReplyCut(Exception):
    """A successful reply's body broke off before it was whole."""


class _Inflater:
    """A reply's body decoded a chunk at a time (``gzip``, ``deflate`` or as it came), refused once
    it passes ``limit`` bytes."""

    def __init__(self, encoding: str, limit: int) -> None:
        self.encoding, self.limit, self.total = encoding, limit, 0
        self.inflate = zlib.decompressobj(_WBITS[encoding]) if encoding in _WBITS else None

    def feed(self, data: bytes) -> Iterator[bytes]:
        while data:
            # (at most a byte past the room left: enough to know the bound was passed)
            out = self.inflate.decompress(data, self.limit - self.total + 1) if self.inflate else data
            data = self.inflate.unconsumed_tail if self.inflate else b""
            self.total += len(out)
            if self.total > self.limit:
                raise ReplyTooLarge(
                    f"the reply ran past {self.limit:,} bytes"
                    + (f" once decoded from {self.encoding}" if self.inflate else "")
                    + "; not read further"
                )
            yield out

    def end(self) -> bytes:
        return self.inflate.flush() if self.inflate is not None else b""

    def broke(self, exc: Exception, delivered: bool) -> Exception:
        """What a body that broke off (``exc``) is: for a successful reply, :class:`ReplyCut`."""
        if not delivered:
            return exc
        if isinstance(exc, zlib.error):  # a broken proxy's or a flipped bit's: delivered all the same
            return ReplyCut(f"the reply's {self.encoding} body could not be decoded ({exc})")
        return ReplyCut(f"the reply's body broke off before it was whole ({type(exc).__name__}: {exc})")


#: What a body breaking off raises while it is read.
_BROKEN = (httpx.RemoteProtocolError, httpx.ReadError, zlib.error)


class _Decoded(httpx.AsyncByteStream):
    """The body of a reply decoded chunk by chunk (:class:`_Inflater`); a successful one
    (``delivered``) that breaks off is :class:`ReplyCut`."""

    def __init__(self, raw: httpx.AsyncByteStream, encoding: str, limit: int, delivered: bool) -> None:
        self.raw, self.inflater, self.delivered = raw, _Inflater(encoding, limit), delivered

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self.raw:
                for out in self.inflater.feed(chunk):
                    yield out
            if tail := self.inflater.end():
                yield tail
        except _BROKEN as exc:
            raise self.inflater.broke(exc, self.delivered) from exc

    async def aclose(self) -> None:
        await self.raw.aclose()


class _DecodedSync(httpx.SyncByteStream):
    """:class:`_Decoded` for a sync client's reply (litellm's batch and file calls)."""

    def __init__(self, raw: httpx.SyncByteStream, encoding: str, limit: int, delivered: bool) -> None:
        self.raw, self.inflater, self.delivered = raw, _Inflater(encoding, limit), delivered

    def __iter__(self) -> Iterator[bytes]:
        try:
            for chunk in self.raw:
                yield from self.inflater.feed(chunk)
            if tail := self.inflater.end():
                yield tail
        except _BROKEN as exc:
            raise self.inflater.broke(exc, self.delivered) from exc

    def close(self) -> None:
        self.raw.close()


def _encoding(response: httpx.Response) -> str:
    """The reply's content encoding, :class:`ReplyTooLarge` for one not read here."""
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    if encoding not in ("identity", "", *_WBITS):
        raise ReplyTooLarge(f"the reply came encoded as {encoding!r}, which is not read here")
    return encoding


def _decoded(
    request: httpx.Request, response: httpx.Response, stream: httpx.AsyncByteStream | httpx.SyncByteStream
) -> httpx.Response:
    """``response`` to ``request`` with its body read through ``stream`` and no content encoding left to apply."""
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() != "content-encoding"]
    return httpx.Response(
        response.status_code, headers=headers, stream=stream, extensions=response.extensions, request=request
    )


class _Bounded(httpx.AsyncBaseTransport):
    """A transport whose replies are decoded by :class:`_Decoded` instead of by httpx: asks for
    only the encodings read here, and refuses another."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.headers["Accept-Encoding"] = "gzip, deflate"
        response = await self.inner.handle_async_request(request)
        try:
            encoding = _encoding(response)
        except ReplyTooLarge:
            await response.aclose()
            raise
        assert isinstance(response.stream, httpx.AsyncByteStream)
        return _decoded(request, response, _Decoded(response.stream, encoding, MAX_REPLY_BYTES, response.is_success))

    async def aclose(self) -> None:
        await self.inner.aclose()


class _BoundedSync(httpx.BaseTransport):
    """:class:`_Bounded` for a sync client (litellm's batch and file calls), to :data:`MAX_FILE_BYTES`."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.headers["Accept-Encoding"] = "gzip, deflate"
        response = self.inner.handle_request(request)
        try:
            encoding = _encoding(response)
        except ReplyTooLarge:
            response.close()
            raise
        assert isinstance(response.stream, httpx.SyncByteStream)
        return _decoded(request, response, _DecodedSync(response.stream, encoding, MAX_FILE_BYTES, response.is_success))

    def close(self) -> None:
        self.inner.close()


class TooSlow(Exception):
    """A call that did not end within its deadline."""


def within(seconds: float, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``, given at most ``seconds`` from its start to its end. A sync client's
    timeout bounds each read, not the call: a server sending a byte a second held a batch run for
    ever. The call runs in a daemon thread; past the deadline it is left there (its connection
    with it, until the process ends) and :class:`TooSlow` is raised."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # (handed to the caller below)
            box["error"] = exc

    thread = threading.Thread(target=run, name="shape-asserts-call", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TooSlow(f"no whole reply within {seconds:g} s (--request-timeout)")
    if "error" in box:
        raise box["error"]
    return box["value"]


class Deadlined:
    """A module's functions, each call given at most ``seconds`` (:func:`within`): litellm's batch
    and file calls, made with a sync client."""

    def __init__(self, module: Any, seconds: float) -> None:
        self._module, self._seconds = module, seconds

    def __getattr__(self, name: str) -> Callable[..., Any]:
        return functools.partial(within, self._seconds, getattr(self._module, name))


def install() -> None:
    """Every async transport litellm makes from now on (one a client, per event loop: its
    OpenAI-compatible calls, and the providers its own handler serves) reads replies to the bound,
    and so does every sync client it makes for OpenAI's files and batches. litellm's transport
    (connection pooling, proxies, certificates) does the rest as before."""
    from litellm.llms.custom_httpx.http_handler import AsyncHTTPHandler
    from litellm.llms.openai.common_utils import OpenAIHTTPClient

    if not getattr(OpenAIHTTPClient, "bounded", False):
        made = OpenAIHTTPClient.__init__

        def made_bounded(self: Any) -> None:
            made(self)
            self._transport = _BoundedSync(self._transport)  # (httpx's transport when no proxy is mounted)

        OpenAIHTTPClient.__init__ = made_bounded  # type: ignore[method-assign]
        OpenAIHTTPClient.bounded = True  # type: ignore[attr-defined]

    make = AsyncHTTPHandler.create_async_transport
    if getattr(make, "bounded", False):
        return

    def bounded(*args: Any, **kwargs: Any) -> Any:
        transport = make(*args, **kwargs)
        return transport if transport is None else _Bounded(transport)

    bounded.bounded = True  # type: ignore[attr-defined]
    AsyncHTTPHandler.create_async_transport = staticmethod(bounded)  # type: ignore[method-assign]
