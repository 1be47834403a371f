"""Replies read to a bound: whatever a server sends, compressed or not, a reply takes at most
:data:`MAX_REPLY_BYTES` of memory once decoded.

An OpenAI-compatible server's body is read whole before litellm sees it, and decompressed as it is
read: a reply of a megabyte sent with ``Content-Encoding: gzip`` inflated to a gigabyte took 4.3 GB
of memory for one case. :func:`install` wraps the transports litellm makes for its HTTP clients:
their replies are decoded here, a chunk at a time, and refused past the bound
(:class:`ReplyTooLarge`: a delivered reply, not asked again). A successful reply whose body breaks
off (the connection dropped half-way) was delivered too: the answer was generated and may be
billed, so it is :class:`ReplyCut`, not the connection error litellm would retry.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator
from typing import Any

import httpx

__all__ = ["MAX_REPLY_BYTES", "ReplyCut", "ReplyTooLarge", "install"]

#: The most a reply's body may hold once decoded: an answer of a million tokens is about 4 MB.
MAX_REPLY_BYTES = 32 * 2**20

#: The encodings a reply may come in, and how zlib reads each (``gzip`` or a zlib stream).
_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}


class ReplyTooLarge(Exception):
    """A server's reply ran past :data:`MAX_REPLY_BYTES` decoded, or came in an encoding not read here."""


class ReplyCut(Exception):
    """A successful reply's body broke off before it was whole."""


class _Decoded(httpx.AsyncByteStream):
    """The body of a reply decoded chunk by chunk, refused once it passes ``limit`` bytes; a
    successful one (``delivered``) that breaks off is :class:`ReplyCut`."""

    def __init__(self, raw: httpx.AsyncByteStream, encoding: str, limit: int, delivered: bool) -> None:
        self.raw, self.encoding, self.limit, self.delivered = raw, encoding, limit, delivered

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for out in self._decoded():
                yield out
        except (httpx.RemoteProtocolError, httpx.ReadError) as exc:
            if not self.delivered:
                raise
            raise ReplyCut(f"the reply's body broke off before it was whole ({type(exc).__name__}: {exc})") from exc
        except zlib.error as exc:  # a broken proxy's or a flipped bit's: delivered all the same
            if not self.delivered:
                raise
            raise ReplyCut(f"the reply's {self.encoding} body could not be decoded ({exc})") from exc

    async def _decoded(self) -> AsyncIterator[bytes]:
        inflate = zlib.decompressobj(_WBITS[self.encoding]) if self.encoding in _WBITS else None
        total = 0
        async for chunk in self.raw:
            data = chunk
            while data:
                # (at most a byte past the room left: enough to know the bound was passed)
                out = inflate.decompress(data, self.limit - total + 1) if inflate else data
                data = inflate.unconsumed_tail if inflate else b""
                total += len(out)
                if total > self.limit:
                    raise ReplyTooLarge(
                        f"the reply ran past {self.limit:,} bytes"
                        + (f" once decoded from {self.encoding}" if inflate else "")
                        + "; not read further"
                    )
                yield out
        if inflate is not None:
            yield inflate.flush()

    async def aclose(self) -> None:
        await self.raw.aclose()


class _Bounded(httpx.AsyncBaseTransport):
    """A transport whose replies are decoded by :class:`_Decoded` instead of by httpx: asks for
    only the encodings read here, and refuses another."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.headers["Accept-Encoding"] = "gzip, deflate"
        response = await self.inner.handle_async_request(request)
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if encoding not in ("identity", "", *_WBITS):
            await response.aclose()
            raise ReplyTooLarge(f"the reply came encoded as {encoding!r}, which is not read here")
        assert isinstance(response.stream, httpx.AsyncByteStream)
        headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() != "content-encoding"]
        return httpx.Response(
            response.status_code,
            headers=headers,
            stream=_Decoded(response.stream, encoding, MAX_REPLY_BYTES, response.is_success),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        await self.inner.aclose()


def install() -> None:
    """Every async transport litellm makes from now on (one a client, per event loop: its
    OpenAI-compatible calls, and the providers its own handler serves) reads replies to the bound.
    litellm's transport (connection pooling, proxies, certificates) does the rest as before."""
    from litellm.llms.custom_httpx.http_handler import AsyncHTTPHandler

    make = AsyncHTTPHandler.create_async_transport
    if getattr(make, "bounded", False):
        return

    def bounded(*args: Any, **kwargs: Any) -> Any:
        transport = make(*args, **kwargs)
        return transport if transport is None else _Bounded(transport)

    bounded.bounded = True  # type: ignore[attr-defined]
    AsyncHTTPHandler.create_async_transport = staticmethod(bounded)  # type: ignore[method-assign]
