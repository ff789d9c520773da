"""The phone feature's parts on their own: seat codes, message budget, join codes, settings."""

from __future__ import annotations

import secrets

import pytest

from controller.config import ConfigError, parse
from controller.phones.limits import RateLimit
from controller.phones.qr import join_link, matrix, wifi_code
from controller.phones.tokens import TOKEN_BYTES, SeatKeys, redact


def test_each_seat_gets_its_own_code_of_at_least_128_random_bits():
    keys = SeatKeys([1, 2, 3, 4])
    tokens = [keys.token(s) for s in keys.seats]
    assert TOKEN_BYTES * 8 >= 128
    assert len(set(tokens)) == 4 and all(t and len(t) >= 22 for t in tokens)
    assert [keys.seat_of(t) for t in tokens] == [1, 2, 3, 4]


def test_a_code_opens_only_its_own_seat_and_nothing_else_opens_any():
    keys = SeatKeys([1, 2])
    t1 = keys.token(1)
    assert keys.seat_of(t1) == 1
    for wrong in (t1[:-1], t1 + "x", t1.upper() if t1 != t1.upper() else t1.lower(), "", None, 17,
                  "x" * 500, t1 + "\u00e9"):
        assert keys.seat_of(wrong) is None


def test_a_reissued_code_replaces_the_old_one_at_once():
    keys = SeatKeys([1, 2])
    old = keys.token(2)
    new = keys.reissue(2)
    assert new != old and keys.seat_of(old) is None and keys.seat_of(new) == 2
    assert keys.issued == {1: 1, 2: 2}
    keys.revoke(1)
    assert keys.token(1) is None


def test_codes_end_with_the_game():
    keys = SeatKeys([1, 2])
    t = keys.token(1)
    keys.end()
    assert keys.seat_of(t) is None
    with pytest.raises(ValueError, match="the game is over"):
        keys.reissue(1)


def test_a_code_for_a_seat_that_is_not_at_the_table_is_refused():
    with pytest.raises(ValueError, match="no seat 9"):
        SeatKeys([1, 2]).reissue(9)


def test_a_log_line_shows_no_code():
    token = secrets.token_urlsafe(24)
    assert token not in redact(token)


def test_the_message_budget_allows_a_burst_then_the_rate():
    t = [0.0]
    limit = RateLimit(per_s=4.0, burst=3, now=lambda: t[0])
    assert [limit.take() for _ in range(5)] == [True, True, True, False, False]
    t[0] += 0.5  # two messages' worth
    assert [limit.take() for _ in range(3)] == [True, True, False]
    t[0] += 100.0  # never more than the burst is saved up
    assert sum(limit.take() for _ in range(10)) == 3
    assert limit.refused == 10


def test_the_join_link_keeps_the_code_out_of_what_the_browser_sends():
    link = join_link("192.168.4.1", 8080, "abc_DEF-123")
    assert link == "http://192.168.4.1:8080/#abc_DEF-123"
    assert join_link("fe80::1", 80, "t") == "http://[fe80::1]:80/#t"


def test_a_join_code_is_a_real_qr_matrix():
    rows = matrix(join_link("192.168.4.1", 8080, "a" * 32))
    assert len(rows) == len(rows[0]) and len(rows) >= 25  # version 2 or more: 25+ modules a side
    assert set("".join(rows)) == {"0", "1"}
    # every QR code has three finder patterns: 7x7 squares with a dark ring
    for r0, c0 in ((0, 0), (0, len(rows) - 7), (len(rows) - 7, 0)):
        assert rows[r0][c0:c0 + 7] == "1111111" and rows[r0 + 6][c0:c0 + 7] == "1111111"


def test_the_wifi_code_escapes_what_the_format_reserves():
    assert wifi_code('a;b,c:d"e\\', "p") == 'WIFI:T:WPA;S:a\\;b\\,c\\:d\\"e\\\\;P:p;;'
    with pytest.raises(ValueError, match="wifi_ssid"):
        wifi_code("")


def test_phones_are_off_by_default_and_the_config_names_a_bad_value():
    assert parse("").phones.enabled is False
    cfg = parse("[phones]\nenabled = true\nport = 9000\nwifi_ssid = \"party\"\n")
    assert cfg.phones.enabled and cfg.phones.port == 9000 and cfg.phones.wifi_ssid == "party"
    for bad, named in (("port = 70000", "phones.port"), ("enabled = 1", "phones.enabled"),
                       ("wifi_security = \"WPA9\"", "phones.wifi_security"),
                       ("max_message_bytes = 10", "phones.max_message_bytes"),
                       ("colour = 3", "phones.colour")):
        with pytest.raises(ConfigError, match=named):
            parse(f"[phones]\n{bad}\n")


def test_the_doctor_says_phones_are_off_or_whether_their_port_is_free(tmp_path):
    import json
    import socket

    from controller.config import Phones
    from controller.doctor.phones import check_phones

    settings = tmp_path / "settings.json"
    off = check_phones(Phones(), settings)
    assert off.status == "PASS" and "no network port" in off.detail
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings.write_text(json.dumps({"phones": True}))  # the host turned them on in Settings
        busy = check_phones(Phones(host="127.0.0.1", port=port), settings)
    assert busy.status == "FAIL" and f"port {port}" in busy.detail and "[phones] port" in busy.fix
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free_port = probe.getsockname()[1]
    free = check_phones(Phones(host="127.0.0.1", port=free_port, address="10.42.0.1"), settings)
    assert free.status == "PASS" and f"http://10.42.0.1:{free_port}/" in free.detail
    settings.write_text(json.dumps({"phones": False}))
    assert check_phones(Phones(enabled=True), settings).status == "PASS", "the host's choice wins"
