"""A "not this network" is not believed for the server's whole life: the laptop that joins the
hall's Wi-Fi after the server started (or whose IPv6 address comes late) is asked again within
``RECHECK_SECONDS``, and from then on each phone of the hall is a device of its own, not the hall
one device sharing one rate limit.  No clock here: the test's own, moved by hand."""

from __future__ import annotations

import socket
import types

from tournament.web import devices

HALL = "2001:db8:1:2::/64"


class _Laptop:
    """The operating system's answer, as the laptop's networks are now: asked how often."""

    def __init__(self) -> None:
        self.networks: set[str] = set()
        self.asked = 0

    def __call__(self, network: str) -> bool:
        self.asked += 1
        return network in self.networks


def test_a_network_joined_after_the_server_started_is_found(monkeypatch) -> None:
    laptop, now = _Laptop(), [100.0]
    remembered = devices.Remembered(laptop, clock=lambda: now[0], recheck=10.0)
    monkeypatch.setattr(devices, "on_this_network", remembered)
    # Not yet on the hall's Wi-Fi: the phones' /64 is another network's, asked once.
    assert {devices.device(f"2001:db8:1:2::{k:x}") for k in range(1, 50)} == {HALL}
    assert laptop.asked == 1
    laptop.networks.add(HALL)  # the laptop joins the Wi-Fi (its IPv6 address arrives)
    now[0] += 9.0
    assert devices.device("2001:db8:1:2::a") == HALL and laptop.asked == 1  # believed a while yet
    now[0] += 1.0
    assert devices.device("2001:db8:1:2::a") == "2001:db8:1:2::a" and laptop.asked == 2  # asked again
    assert devices.device("2001:db8:1:2::b") == "2001:db8:1:2::b"
    # A "yes" is kept: the hall's phones are devices of their own from now on, nothing asked again.
    now[0] += 10_000.0
    assert [devices.device(f"2001:db8:1:2::{k:x}") for k in range(1, 4)] == \
        ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2::3"]
    assert laptop.asked == 2


def test_a_remote_network_is_asked_again_only_now_and_then() -> None:
    laptop, now = _Laptop(), [0.0]
    remembered = devices.Remembered(laptop, clock=lambda: now[0], recheck=10.0)
    for step in range(100):  # a request every second for 100 s from a network elsewhere
        now[0] = float(step)
        assert remembered("2001:db8:9:9::/64") is False
    assert laptop.asked == 10


def test_the_answers_kept_are_bounded_and_can_be_forgotten() -> None:
    laptop = _Laptop()
    laptop.networks.add(HALL)
    remembered = devices.Remembered(laptop, clock=lambda: 0.0, most=3)
    for n in range(5):
        remembered(f"2001:db8:0:{n}::/64")
    assert len(remembered._answers) == 3
    assert remembered(HALL) and remembered(HALL) and laptop.asked == 6
    remembered.cache_clear()
    assert remembered(HALL) and laptop.asked == 7


def test_the_server_s_answers_are_asked_again() -> None:
    """What the server uses: the system's answers, a "no" believed for a few seconds only."""
    assert isinstance(devices.on_this_network, devices.Remembered)
    assert devices.on_this_network.ask is devices.probe and 0 < devices.on_this_network.recheck <= 60
    assert devices.probe("2001:db8:77:1::/64") is False  # the documentation prefix: nobody's own


class _Socket:
    """A UDP socket of a laptop off the hall's network until ``joined[0]``: the route the system
    would take to the hall's /64, from the laptop's address there once it has one."""

    joined = [False]

    def __init__(self, *args) -> None:
        pass

    def __enter__(self) -> "_Socket":
        return self

    def __exit__(self, *exc) -> None:
        pass

    def connect(self, where) -> None:
        if not self.joined[0]:
            raise OSError("network is unreachable")

    def getsockname(self):
        return ("2001:db8:1:2::99", 0, 0, 0)


def test_the_server_asks_the_system_again_once_a_no_is_old(monkeypatch) -> None:
    """Through the server's own :data:`devices.on_this_network` and :func:`devices.probe`, the
    system's answer changing under them (the laptop joins the hall's Wi-Fi)."""
    now = [0.0]
    _Socket.joined = [False]
    monkeypatch.setattr(devices, "socket", types.SimpleNamespace(socket=_Socket, AF_INET6=socket.AF_INET6,
                                                                 SOCK_DGRAM=socket.SOCK_DGRAM))
    monkeypatch.setattr(devices.on_this_network, "clock", lambda: now[0], raising=False)
    devices.on_this_network.cache_clear()
    try:
        assert devices.device("2001:db8:1:2::a") == devices.device("2001:db8:1:2::b") == HALL
        _Socket.joined[0] = True
        now[0] = devices.RECHECK_SECONDS if hasattr(devices, "RECHECK_SECONDS") else 3600.0
        assert devices.device("2001:db8:1:2::a") == "2001:db8:1:2::a"
        assert devices.device("2001:db8:1:2::b") == "2001:db8:1:2::b"
    finally:
        devices.on_this_network.cache_clear()
