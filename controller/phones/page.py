"""The one phone page: HTML with its style and script inline, nothing fetched from anywhere.

Its Content-Security-Policy admits exactly its own inline style and script (by their
SHA-256) and WebSockets to the page's own origin; nothing may frame it.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from importlib import resources

MAX_BYTES = 100_000


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


@dataclass(frozen=True)
class Page:
    body: bytes
    headers: dict[str, str]


def load() -> Page:
    html = resources.files("controller.phones").joinpath("page.html").read_text(encoding="utf-8")
    body = html.encode("utf-8")
    if len(body) >= MAX_BYTES:
        raise ValueError(f"the phone page is {len(body)} bytes: it must stay under {MAX_BYTES}")
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    styles = re.findall(r"<style>(.*?)</style>", html, re.S)
    csp = ("default-src 'none'; "
           f"script-src {' '.join(_hash(s) for s in scripts)}; "
           f"style-src {' '.join(_hash(s) for s in styles)}; "
           "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
           "frame-ancestors 'none'")
    headers = {"Content-Security-Policy": csp, "Cache-Control": "no-store",
               "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
               "X-Frame-Options": "DENY"}
    return Page(body, headers)


PAGE = load()
