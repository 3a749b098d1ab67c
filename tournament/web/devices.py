"""Which device a client address stands for: what the rate limit and the count of connections count.

An IPv4 address is one device (or one household behind its router: the same).  An IPv6 device is
not one address: a phone makes up new privacy addresses through the day, and any device may take
as many addresses of its network's /64 as it likes; counted address by address, each of them got
a full burst of the rate limit and 64 connections of its own.  So an IPv6 client is counted by
its /64, the network the device's addresses are made in (an IPv4 address written as IPv6,
``::ffff:192.0.2.7``, as that IPv4 address).

Except on the server's own network.  In the hall every phone on the Wi-Fi has an address in the
same /64, the laptop's own: counted by it, the whole hall would share one device's rate limit.
There (and for a link-local ``fe80::`` address or the loopback, which are always on this
computer's own links) each address is a device, as an IPv4 address is: a phone of the hall
making up addresses is the one case this leaves, as it always was.  Whether a /64 is on this
computer's network is asked of the operating system (:func:`on_this_network`), without sending
anything, once a /64.
"""

from __future__ import annotations

import functools
import ipaddress
import socket
from typing import Callable

#: The prefix an IPv6 client is counted by, off this computer's own network.
PREFIX = 64
#: The /64s :func:`on_this_network` remembers the answer for (the most the rate limit keeps).
NETWORKS = 10_000


@functools.lru_cache(maxsize=NETWORKS)
def on_this_network(network: str) -> bool:
    """Whether the IPv6 ``network`` (a /64, ``2001:db8:1:2::/64``) is one this computer has an
    address in: the address the system would send to it from is in it.  Connecting a UDP socket
    sends nothing; no route (no IPv6 here, an unreachable network) is "not this network"."""
    target = str(ipaddress.IPv6Network(network).network_address + 1)
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as probe:
            probe.connect((target, 9))
            mine = probe.getsockname()[0]
        return ipaddress.IPv6Address(mine.split("%", 1)[0]) in ipaddress.IPv6Network(network)
    except (OSError, ValueError):
        return False


def device(address: str, near: Callable[[str], bool] | None = None) -> str:
    """The device ``address`` is counted as: an IPv4 address itself; an IPv4-mapped IPv6 address
    as its IPv4 address; an IPv6 address as its /64 (``2001:db8:1:2::/64``), unless the /64 is on
    this computer's own network (``near``, else :func:`on_this_network`), or the address is
    link-local or the loopback: then itself, written as ``ipaddress`` writes it.  Anything else
    (no address, a name) as it is."""
    if ":" not in address:
        return address  # an IPv4 address (the most common by far: nothing to parse), or none
    try:
        ip = ipaddress.IPv6Address(address.split("%", 1)[0])
    except ValueError:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.is_link_local or ip.is_loopback:
        return str(ip)
    network = str(ipaddress.IPv6Network((ip, PREFIX), strict=False))
    return str(ip) if (near or on_this_network)(network) else network
