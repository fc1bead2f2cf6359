"""Local TCP servers that are not Dask schedulers (a web server, a listener that never answers, ...), for the
executor's address tests (tests/execution/test_executor.py, tests/fuzz/test_batch.py)."""

from __future__ import annotations

import contextlib
import socket
import threading


def _greeting() -> bytes:
    """What a Dask scheduler sends first on every connection (its handshake), framed as Dask frames it."""
    import struct

    import msgpack

    frame = msgpack.packb({"compression": None, "python": (3, 11, 7), "pickle-protocol": 5})
    return struct.pack("<QQQ", 16 + len(frame), 1, len(frame)) + frame


SERVERS = {
    "never answers": lambda conn, seen: threading.Event().wait(60),
    "closes at once": lambda conn, seen: None,
    "answers garbage": lambda conn, seen: conn.sendall(b"\xff" * 64),
    "sends a banner": lambda conn, seen: conn.sendall(b"SSH-2.0-OpenSSH_9.2\r\n"),
    "greets like Dask, then never answers": lambda conn, seen: (conn.sendall(_greeting()), threading.Event().wait(60)),
    "sends half a greeting": lambda conn, seen: (conn.sendall(_greeting()[:20]), threading.Event().wait(60)),
    "greets the first connection only": lambda conn, seen: (
        seen.append(conn), conn.sendall(_greeting()) if len(seen) == 1 else None, threading.Event().wait(60)),
}
"""TCP servers that are not Dask schedulers, by what they do with each connection (``seen``: the list of that one
server's connections, so that each server of a kind counts its own from the first)."""


def drip(data: bytes, every: float):
    """A server's answer to a connection: ``data`` one byte every ``every`` seconds, then silence (a slow-drip
    server: each byte comes well within any per-read timeout, the whole never within a connection's)."""
    import time

    def answer(conn) -> None:
        for i in range(len(data)):
            try:
                conn.sendall(data[i:i + 1])
            except OSError:
                return
            time.sleep(every)
        threading.Event().wait(60)

    return answer


DRIPS = {"greeting": _greeting, "header": lambda: _greeting()[:16], "banner": lambda: b"HTTP/1.1 200 OK\r\n" * 4}
"""What a slow-drip server sends slowly: a whole Dask greeting, only its header, a web server's first lines."""


@contextlib.contextmanager
def serving(kind: str, answer=None):
    """A local server of ``kind`` (one of :data:`SERVERS`, or "http": a web server; or any ``answer(conn)``, such as
    :func:`drip`'s); yields its tcp:// address."""
    if kind == "http":
        from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

        web = ThreadingHTTPServer(("127.0.0.1", 0), SimpleHTTPRequestHandler)
        threading.Thread(target=web.serve_forever, daemon=True).start()
        try:
            yield f"tcp://127.0.0.1:{web.server_address[1]}"
        finally:
            web.shutdown()
            web.server_close()
        return
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    seen: list = []  # this server's connections so far

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            act = answer or (lambda c: SERVERS[kind](c, seen))
            threading.Thread(target=lambda c=conn, a=act: (a(c), c.close()), daemon=True).start()

    accepting = threading.Thread(target=serve, daemon=True)
    accepting.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        _stop(server, accepting)


def _stop(server: socket.socket, accepting: threading.Thread) -> None:
    """Stop a server's accepting thread before its socket is closed. A close alone neither wakes an ``accept`` that is
    waiting (the socket goes on listening for it) nor stops one about to start with the socket's file number, which
    the next server opened takes: that thread then accepted the next server's connections and answered them as the
    old server did (a slow-drip greeting was answered by an earlier test's slow-drip web-server banner). A shutdown ends
    the waiting ``accept`` (Linux), and the thread is joined before the number is freed."""
    with contextlib.suppress(OSError):
        server.shutdown(socket.SHUT_RDWR)
    accepting.join(5)
    server.close()
