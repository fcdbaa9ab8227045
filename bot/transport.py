"""The bot's HTTP client for the Bot API: python-telegram-bot's transport on aiohttp.

PTB's default ``HTTPXRequest`` was the bot's bottleneck with many busy tables: the CPU it spends
per call (httpcore's pool bookkeeping, a failed ``sniffio`` import on every request when that
package is absent) made a move's calls queue for seconds at 200 tables, where aiohttp's client
answers in tens of milliseconds (``benchmarks/bench_bot.py --transport httpx`` compares them).
Parameters go as a JSON body, which the Bot API accepts for every method; uploads go as
multipart, as PTB's own transport sends them.

Every wait is bounded, the wait for a free connection too: a move's calls go out while its table
is locked, so a saturated pool must fail the call (``TimedOut``) rather than hold the lock forever.
"""

from __future__ import annotations

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData


class AiohttpRequest(BaseRequest):
    """One aiohttp session with a bounded connection pool; PTB calls it for every request.

    ``trust_env`` follows the ``HTTPS_PROXY``/``NO_PROXY`` variables, as httpx does by default.
    """

    def __init__(
        self,
        pool: int = 64,
        connect_timeout: float = 5.0,
        read_timeout: float = 5.0,
        pool_timeout: float = 5.0,
        trust_env: bool = True,
    ) -> None:
        self._pool = pool
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._read_timeout = read_timeout
        self._trust_env = trust_env
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(
                connector=connector,
                trust_env=self._trust_env,
                headers={"User-Agent": self.USER_AGENT},
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(  # noqa: PLR0917  (the signature is BaseRequest's)
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: object = BaseRequest.DEFAULT_NONE,
        write_timeout: object = BaseRequest.DEFAULT_NONE,
        connect_timeout: object = BaseRequest.DEFAULT_NONE,
        pool_timeout: object = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None:
            raise RuntimeError("AiohttpRequest is not initialized")
        connect = _seconds(connect_timeout, self._connect_timeout)
        pool = _seconds(pool_timeout, self._pool_timeout)
        timeout = aiohttp.ClientTimeout(
            total=None,
            # aiohttp's ``connect`` covers waiting for a free connection *and* opening it
            connect=None if pool is None or connect is None else pool + connect,
            sock_connect=connect,
            sock_read=_seconds(read_timeout, self._read_timeout),
        )
        body: aiohttp.FormData | bytes | None = None
        headers: dict[str, str] | None = None
        if request_data is not None and request_data.contains_files:
            body = _multipart(request_data)
        elif request_data is not None:
            body = request_data.json_payload
            headers = {"Content-Type": "application/json"}
        try:
            async with self._session.request(
                method, url, data=body, headers=headers, timeout=timeout
            ) as reply:
                return reply.status, await reply.read()
        except TimeoutError as exc:
            raise TimedOut from exc
        except aiohttp.ClientError as exc:
            raise NetworkError(f"aiohttp {type(exc).__name__}: {exc}") from exc


def _seconds(given: object, ours: float | None) -> float | None:
    """The timeout PTB passed, or ours where it left the choice to the transport.

    The parameters are typed ``object`` because PTB's "not set" marker,
    ``BaseRequest.DEFAULT_NONE``, is an instance of a private class; PTB's documented test for
    it is identity.
    """
    if given is BaseRequest.DEFAULT_NONE:
        return ours
    if given is None or isinstance(given, int | float):
        return given
    raise TypeError(f"a timeout is seconds or None, not {given!r}")


def _multipart(request_data: RequestData) -> aiohttp.FormData:
    form = aiohttp.FormData()
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, upload in request_data.multipart_data.items():
        filename, content, content_type = upload
        form.add_field(name, content, filename=filename, content_type=content_type)
    return form
