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
computer's network is asked of the operating system (:func:`probe`), without sending anything.
The answer is remembered (:data:`on_this_network`): "yes" for good, "no" for
:data:`RECHECK_SECONDS`, then asked again, so that a laptop that joins the hall's Wi-Fi after the
server started (or whose IPv6 address came late) counts each phone as a device within seconds,
instead of the whole hall as one for the rest of the day.
"""

from __future__ import annotations

import collections
import ipaddress
import socket
import time
from typing import Callable

#: The prefix an IPv6 client is counted by, off this computer's own network.
PREFIX = 64
#: The /64s :data:`on_this_network` remembers the answer for (the most the rate limit keeps).
NETWORKS = 10_000
#: Seconds a "not this network" is believed before the system is asked again (a "yes" is kept).
RECHECK_SECONDS = 10.0


def probe(network: str) -> bool:
    """Whether the IPv6 ``network`` (a /64, ``2001:db8:1:2::/64``) is one this computer has an
    address in: the address the system would send to it from is in it.  Connecting a UDP socket
    sends nothing; no route (no IPv6 here, an unreachable network) is "not this network"."""
    target = str(ipaddress.IPv6Network(network).network_address + 1)
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as sock:
            sock.connect((target, 9))
            mine = sock.getsockname()[0]
        return ipaddress.IPv6Address(mine.split("%", 1)[0]) in ipaddress.IPv6Network(network)
    except (OSError, ValueError):
        return False


class Remembered:
    """:func:`probe`'s answers (``ask``'s), remembered for the last :data:`NETWORKS` /64s asked
    about: a "yes" for good (the laptop had an address there: each address counted as a device,
    the lenient side), a "no" for ``recheck`` seconds of ``clock`` (monotonic), then asked again.
    A "no" believed for good was a hall counted as one device for the server's whole life, had the
    laptop joined its Wi-Fi (or had its IPv6 address) only after the first phone came."""

    def __init__(self, ask: Callable[[str], bool] = probe, clock: Callable[[], float] = time.monotonic,
                 recheck: float = RECHECK_SECONDS, most: int = NETWORKS) -> None:
        self.ask, self.clock, self.recheck, self.most = ask, clock, recheck, most
        #: Each /64 asked about: its answer, and when it was asked (least lately used first).
        self._answers: collections.OrderedDict[str, tuple[bool, float]] = collections.OrderedDict()

    def __call__(self, network: str) -> bool:
        found = self._answers.get(network)
        if found is not None and (found[0] or self.clock() - found[1] < self.recheck):
            self._answers.move_to_end(network)
            return found[0]
        answer = bool(self.ask(network))
        self._answers[network] = (answer, self.clock())
        self._answers.move_to_end(network)
        while len(self._answers) > self.most:
            self._answers.popitem(last=False)
        return answer

    def cache_clear(self) -> None:
        """Everything forgotten: the next question about each /64 is asked of the system again."""
        self._answers.clear()


#: Whether a /64 is on this computer's own network: :func:`probe`'s answer, remembered.
on_this_network = Remembered()


def device(address: str, near: Callable[[str], bool] | None = None) -> str:
    """The device ``address`` is counted as: an IPv4 address itself; an IPv4-mapped IPv6 address
    as its IPv4 address; an IPv6 address as its /64 (``2001:db8:1:2::/64``), unless the /64 is on
    this computer's own network (``near``, else :data:`on_this_network`), or the address is
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
