"""A page's state in the browser's address: a JSON document as compact URL-safe text (zlib, then
base64url), so a reload or a bookmark resumes where the user was. Presentation plumbing only."""

from __future__ import annotations

import base64
import binascii
import json
import zlib

from solver.errors import BadInput

MAX_TEXT = 64 * 1024  # longer addresses are refused rather than decompressed


def encode(doc: dict) -> str:
    raw = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def decode(text: str, what: str = "the game in the address") -> dict:
    """The document of :func:`encode`'s text; BadInput naming ``what`` when it is damaged."""
    if len(text) > MAX_TEXT:
        raise BadInput(f"{what} is too long")
    try:
        raw = zlib.decompressobj().decompress(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)), 1 << 20)
        doc = json.loads(raw)
    except (binascii.Error, zlib.error):
        raise BadInput(f"{what} is damaged (not the compressed text a saved game gives)") from None
    except ValueError:
        raise BadInput(f"{what} is damaged (its text is not JSON)") from None
    if not isinstance(doc, dict):
        raise BadInput(f"{what} is not a saved game")
    return doc
