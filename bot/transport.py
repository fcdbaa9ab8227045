"""The bot's HTTP client for the Bot API: python-telegram-bot's transport on aiohttp.

PTB's default ``HTTPXRequest`` was the bot's bottleneck with many busy tables: the CPU it spends
per call (httpcore's pool bookkeeping, a failed ``sniffio`` import on every request when that
package is absent) made a move's calls queue for seconds at 200 tables, where aiohttp's client
answers in tens of milliseconds (``benchmarks/bench_bot.py --transport httpx`` compares them).
Parameters go as a JSON body, which the Bot API accepts for every method; uploads go as
multipart, as PTB's own transport sends them.
"""

from __future__ import annotations

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

Timeout = DefaultValue[float] | float | DefaultValue[None] | None


class AiohttpRequest(BaseRequest):
    """One aiohttp session with a bounded connection pool; PTB calls it for every request.

    ``trust_env`` follows the ``HTTPS_PROXY``/``NO_PROXY`` variables, as httpx does by default.
    """

    def __init__(
        self,
        pool: int = 64,
        connect_timeout: float = 5.0,
        read_timeout: float = 5.0,
        trust_env: bool = True,
    ) -> None:
        self._pool = pool
        self._connect_timeout = connect_timeout
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
        read_timeout: Timeout = BaseRequest.DEFAULT_NONE,
        write_timeout: Timeout = BaseRequest.DEFAULT_NONE,
        connect_timeout: Timeout = BaseRequest.DEFAULT_NONE,
        pool_timeout: Timeout = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None:
            raise RuntimeError("AiohttpRequest is not initialized")
        read = self._read_timeout if isinstance(read_timeout, DefaultValue) else read_timeout
        connect = (
            self._connect_timeout if isinstance(connect_timeout, DefaultValue) else connect_timeout
        )
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=connect, sock_read=read)
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


def _multipart(request_data: RequestData) -> aiohttp.FormData:
    form = aiohttp.FormData()
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, upload in request_data.multipart_data.items():
        filename, content, content_type = upload
        form.add_field(name, content, filename=filename, content_type=content_type)
    return form
