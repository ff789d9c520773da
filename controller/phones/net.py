"""The box's own address on its network, for the join links (read from the interfaces: no traffic)."""

from __future__ import annotations

import ipaddress
import socket
import struct

SIOCGIFADDR = 0x8915


def interface_addresses() -> dict[str, str]:
    """IPv4 address of each network interface that has one (Linux), loopback left out."""
    out: dict[str, str] = {}
    try:
        import fcntl
    except ImportError:  # not Linux
        return out
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue
            addr = socket.inet_ntoa(packed[20:24])
            if not ipaddress.ip_address(addr).is_loopback:
                out[name] = addr
    return out


def box_address(configured: str = "") -> str:
    """The address phones should use: the configured one, else the Wi-Fi's, else any, else loopback."""
    if configured:
        return configured
    found = interface_addresses()
    for prefix in ("wl", "ap", "eth", "en"):
        for name, addr in sorted(found.items()):
            if name.startswith(prefix):
                return addr
    return next(iter(sorted(found.values())), "127.0.0.1")
