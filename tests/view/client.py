"""Requests to a viewer's real server over HTTP, with the standard library's client (what tests/view/ speaks)."""

from __future__ import annotations

import http.client as http_client
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode, urlsplit


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: its status and body."""

    status_code: int
    content: bytes

    @property
    def text(self) -> str:
        """The body as text."""
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.content)


class Client:
    """Requests to the viewer's server over HTTP (the standard library's client, a connection each)."""

    def __init__(self, address: str) -> None:
        split = urlsplit(address)
        assert split.hostname is not None and split.port is not None
        self.host, self.port = split.hostname, split.port

    def request(
        self, method: str, path: str, params: dict[str, Any] | None = None, body: bytes | Iterable[bytes] | None = None
    ) -> Answer:
        """Send one request (a path written as is, but for characters outside ASCII) and read the whole answer."""
        target = quote(path, safe="/:?=&%") + (f"?{urlencode(params)}" if params else "")
        connection = http_client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            connection.request(method, target, body=body, headers=headers, encode_chunked=not isinstance(body, bytes))
            response = connection.getresponse()
            return Answer(response.status, response.read())
        finally:
            connection.close()

    def get(self, path: str, params: dict[str, Any] | None = None) -> Answer:
        """GET `path` with the query `params`."""
        return self.request("GET", path, params)

    def post(self, path: str, json_body: Any = None, content: bytes | Iterable[bytes] | None = None) -> Answer:
        """POST `json_body` as JSON, or the bytes `content` as they are."""
        return self.request("POST", path, body=json.dumps(json_body).encode() if content is None else content)
