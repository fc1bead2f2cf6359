"""A Dask cluster as an executor (:mod:`solver.execution.executor`): its address checked without connecting, then
reached within one deadline, greeting included, and a scheduler without workers named within
:data:`WORKERS_WAIT` seconds, with a line every :data:`WORKERS_SAY` seconds while it waits (rule:X-bad-input: each
failure is one line naming the address)."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from solver.errors import BadInput
from solver.io.numbers import short_repr

if TYPE_CHECKING:
    from dask.distributed import Client, Future

_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\]", re.ASCII)


def scheduler_address(text: str) -> tuple[str, int]:
    """``tcp://HOST:PORT`` (a host name, an IPv4 address or ``[IPv6]``; port 1..65535), else BadInput.

    Other Dask transports (tls needs certificates, ucx and websockets extra packages, inproc a
    scheduler in this very process) are refused here, before any connection is tried."""
    usage = "expected 'serial', 'local' or a Dask scheduler address tcp://HOST:PORT"
    scheme, sep, rest = text.partition("://")
    if not sep:
        raise BadInput(f"executor: {usage}, got {short_repr(text, 60)}")
    if scheme != "tcp":
        raise BadInput(f"executor: the {short_repr(scheme, 20)}:// transport is not supported; {usage}")
    host, colon, port = rest.rpartition(":")
    if not colon or not _HOST.fullmatch(host) or not port.isascii() or not port.isdigit() or len(port) > 5 \
            or not 1 <= int(port) <= 65535:
        raise BadInput(f"executor: {usage} (port 1..65535), got {short_repr(text, 60)}")
    return host.strip("[]"), int(port)


GREETING_MAX = 1 << 16
"""Largest greeting accepted from a scheduler (a Dask scheduler's is under 100 bytes)."""


def _reachable(address: str, timeout: float) -> None:
    """Open a TCP connection to the scheduler and read its whole greeting, all within one deadline of
    ``min(timeout, 5)`` seconds: a wrong host or a closed port, and a server that is not a Dask scheduler (a web
    server, a listener that never answers, one that sends its bytes one at a time), are one line at once, not a
    Dask timeout, a hang (Dask waits for the greeting without a time limit) or a traceback later."""
    import time

    host, port = scheduler_address(address)
    wait = min(timeout, 5.0)
    deadline = time.monotonic() + wait
    try:
        with socket.create_connection((host, port), timeout=wait) as conn:
            _read_greeting(conn, address, wait, deadline)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise BadInput(f"executor: cannot reach the Dask scheduler at {address} ({reason})") from None


def _read_greeting(conn: socket.socket, address: str, wait: float, deadline: float) -> None:
    """The first message a Dask scheduler sends on every connection, its handshake: Dask's frames (the
    length of what follows, the frame count and each frame's length, 8 bytes each, little-endian, then the
    frames), the first a msgpack map naming the Python version and the pickle protocol; else BadInput
    naming the address."""
    import struct
    import time

    def take(n: int) -> bytes:
        data = b""
        while len(data) < n:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                conn.settimeout(left)  # what is left of the one deadline, however slowly the bytes come
                chunk = conn.recv(n - len(data))
            except TimeoutError:
                raise BadInput(f"executor: {address} is not a Dask scheduler (it sent no Dask greeting within "
                               f"{wait:g} s)") from None
            if not chunk:
                raise BadInput(f"executor: {address} is not a Dask scheduler (it closed the connection)")
            data += chunk
        return data

    def refuse(shown: bytes) -> NoReturn:
        raise BadInput(f"executor: {address} is not a Dask scheduler (it answered {short_repr(shown, 40)})")

    head = take(16)
    total, count = struct.unpack("<QQ", head)
    if not 1 <= count <= 64 or not 8 + 8 * count <= total <= GREETING_MAX:
        refuse(head)
    body = take(total - 8)  # the frames' lengths, then the frames
    sizes = struct.unpack(f"<{count}Q", body[:8 * count])
    if sum(sizes) != total - 8 - 8 * count or not _is_handshake(body[8 * count:8 * count + sizes[0]]):
        refuse(head + body[:24])


def _is_handshake(frame: bytes) -> bool:
    import msgpack  # a dependency of dask.distributed

    try:
        message = msgpack.unpackb(frame, raw=False)
    except Exception:  # noqa: BLE001 - whatever does not decode is not a greeting
        return False
    return isinstance(message, dict) and "python" in message and "pickle-protocol" in message


class Dask:
    """A connected Dask client with at least one worker (else BadInput, one line)."""

    def __init__(self, address: str, timeout: float, say: Callable[[str], None] | None = None):
        import time

        from dask.distributed import Client  # a dependency (pyproject.toml); imported when a cluster is named
        started = time.monotonic()
        _reachable(address, timeout)
        built: dict[str, Any] = {}

        def build() -> None:
            try:
                built["client"] = Client(address, timeout=timeout, set_as_default=False)
            except Exception as exc:  # noqa: BLE001 - whatever Dask raises while connecting is one line
                _abandon_client(exc, Client)
                detail = " ".join(str(exc).split())[:200] or f"no answer within {timeout:g} s"
                built["error"] = f"{type(exc).__name__}: {detail}"

        connecting = threading.Thread(target=build, name="dask-connect", daemon=True)
        connecting.start()
        connecting.join(max(0.0, START_FACTOR * timeout - (time.monotonic() - started)))  # one deadline in all
        if connecting.is_alive():  # left behind: a daemon thread, it ends with the process
            raise BadInput(f"executor: the Dask scheduler at {address} did not finish connecting within "
                           f"{START_FACTOR * timeout:g} s")
        if "error" in built:
            raise BadInput(f"executor: cannot use the Dask scheduler at {address} ({built['error']})")
        self.client: Client = built["client"]
        self._wait_for_workers(address, say)

    def _wait_for_workers(self, address: str, say: Callable[[str], None] | None) -> None:
        """A scheduler without workers would take the tasks and never run them: wait up to
        :data:`WORKERS_WAIT` s for one, saying so every :data:`WORKERS_SAY` s, else one line naming it."""
        import time

        started = time.monotonic()
        while True:
            waited = time.monotonic() - started
            try:
                self.client.wait_for_workers(1, timeout=max(0.1, min(WORKERS_SAY, WORKERS_WAIT - waited)))
                return
            except Exception as exc:  # noqa: BLE001 - a timeout, or the scheduler gone: both end the same way
                if not isinstance(exc, TimeoutError) and "timed out" not in str(exc).lower():
                    self.close()
                    raise BadInput(f"executor: the Dask scheduler at {address} failed while waiting for workers "
                                   f"({type(exc).__name__})") from None
            waited = time.monotonic() - started
            if waited >= WORKERS_WAIT:
                self.close()
                raise BadInput(f"executor: the Dask scheduler at {address} has no workers (waited {waited:.0f} s); "
                               f"start some (dask worker {address}) or use --executor local")
            if say is not None:
                say(f"waiting for a worker of the Dask scheduler at {address} ({waited:.0f} s of {WORKERS_WAIT:g})")

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        return self.client.submit(fn, *args, pure=False)

    def close(self, cancel: bool = False) -> None:
        self.client.close()


WORKERS_WAIT = 30.0
"""Seconds a batch waits for a Dask scheduler to have a worker before it says there is none."""
WORKERS_SAY = 5.0
"""Seconds between the lines saying it still waits."""
START_FACTOR = 3
"""The Dask client's start ends within this many connection timeouts (Dask's own steps take at most two each,
but its connection waits for the scheduler's greeting without any limit)."""


def _abandon_client(exc: BaseException, client_class: type[Client]) -> None:
    """Shut down the Dask client a failed ``Client(...)`` left half-built, at once.

    Left alone, its ``__del__`` closes it at exit with a 20 s timeout and then prints a
    ``TimeoutError`` traceback; here its IO loop is stopped and it is marked closed, so the
    command ends with its one-line error."""
    tb = exc.__traceback__
    while tb is not None:
        client = tb.tb_frame.f_locals.get("self")
        if isinstance(client, client_class):
            try:
                client.status = "closed"
                client._loop_runner.stop()
            except Exception:  # noqa: BLE001 - best effort: the error line is what matters
                pass
            return
        tb = tb.tb_next
