"""Phones as private screens: an option, off by default, that the box never depends on.

When the host turns it on (Settings → Phones, or ``[phones] enabled`` in the config), a
small web server runs inside the box's own event loop and serves one page; each seat of
the game in play gets a secret code (a QR code on the TV) that makes a phone its private
screen. See docs/phones.md.

- :mod:`.tokens` the seat codes; :mod:`.limits` a phone's message budget;
- :mod:`.pages` and one ``*_page`` module per game: what a phone shows, from the engine's
  view for its seat alone;
- :mod:`.hub` the bridge to the shell (actions in, pages out, the TV's join screen);
- :mod:`.server` the web server (aiohttp), started and stopped by :mod:`.service`.
"""
