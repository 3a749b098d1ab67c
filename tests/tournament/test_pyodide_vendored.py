"""The phone's engine as the laptop serves it: the vendored Pyodide as recorded, its files and the
engine's bundle with the right types and cached for good, the bundle holding what the phone
imports and nothing compiled, and all of it in the wheel ``pip install`` gets."""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

starlette_testclient = pytest.importorskip("starlette.testclient")

from tests.tournament.test_venue import _auth, _event, _server  # noqa: E402
from tournament.web import engine_bundle  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import fetch_pyodide  # noqa: E402


def test_the_vendored_pyodide_is_as_recorded():
    """Each vendored file's SHA-256 is the one written when it was fetched and verified (``python
    tools/fetch_pyodide.py VERSION`` renews them; ``--check`` is this test)."""
    assert fetch_pyodide.check() == []
    record = json.loads((engine_bundle.PYODIDE / "PYODIDE.json").read_text(encoding="utf-8"))
    assert record["package"] == "pyodide" and record["integrity"].startswith("sha512-")
    assert set(fetch_pyodide.KEEP) == set(record["files"])


def test_a_changed_file_is_found(tmp_path):
    folder = tmp_path / "pyodide"
    folder.mkdir()
    (folder / "a.mjs").write_text("x")
    (folder / fetch_pyodide.RECORD).write_text(json.dumps({"files": {"a.mjs": fetch_pyodide.sha256(folder / "a.mjs")}}))
    assert fetch_pyodide.check(folder) == []
    (folder / "a.mjs").write_text("y")
    (folder / "b.js").write_text("z")
    assert fetch_pyodide.check(folder) == ["a.mjs: its SHA-256 is not the one recorded", "b.js: not recorded"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One Competitive event's server for the module's tests: they read its files and pages, and
    the one test that writes (test_the_table_log_is_given_only_when_asked) is the only one that
    reads the table's log."""
    server = _server(_event(tmp_path_factory.mktemp("served"), "competitive"))
    client = starlette_testclient.TestClient(server.asgi)
    token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
    yield server, client, token
    server.close()


def test_the_table_page_names_the_engine_and_may_compile_it(served):
    server, client, token = served
    r = client.get(f"/t/{token}")
    assert r.status_code == 200
    urls = server.engine.urls()
    assert 'data-engine="loading"' in r.text and f'data-engine-pyodide="{urls["pyodide"]}"' in r.text
    assert f'data-engine-bundle="{urls["bundle"]}"' in r.text and '<script src="/static/engine.js">' in r.text
    assert "'wasm-unsafe-eval'" in r.headers["content-security-policy"]
    # the public pages load no engine
    assert "engine.js" not in client.get("/").text


@pytest.mark.parametrize("name, media", [("pyodide.asm.wasm", "application/wasm"),
                                         ("pyodide.mjs", "text/javascript; charset=utf-8"),
                                         ("pyodide.asm.mjs", "text/javascript; charset=utf-8"),
                                         ("python_stdlib.zip", "application/zip"),
                                         ("pyodide-lock.json", "application/json")])
def test_pyodide_is_served_with_its_type_and_cached_for_good(served, name, media):
    server, client, _ = served
    url = f"{server.engine.urls()['pyodide']}{name}"
    r = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["content-type"] == media
    assert r.headers["cache-control"] == engine_bundle.IMMUTABLE
    assert r.content == (engine_bundle.PYODIDE / name).read_bytes()  # (the client unzips what was gzipped)
    assert (r.headers.get("content-encoding") == "gzip") == (not name.endswith(".zip"))
    again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.get(url.replace(server.engine.version, "0.0.1")).status_code == 404
    assert client.get(f"{server.engine.urls()['pyodide']}PYODIDE.json").status_code == 404


def test_the_unversioned_static_files_have_their_types_too(served):
    _, client, _ = served
    assert client.get("/static/pyodide/pyodide.asm.wasm").headers["content-type"] == "application/wasm"
    assert client.get("/static/pyodide/pyodide.mjs").headers["content-type"].startswith("text/javascript")


def test_the_bundle_holds_the_phones_modules_and_nothing_compiled(served):
    server, client, _ = served
    url = server.engine.urls()["bundle"]
    r = client.get(url)
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    assert r.headers["cache-control"] == engine_bundle.IMMUTABLE
    assert client.get(url, headers={"If-None-Match": r.headers["etag"]}).status_code == 304
    assert client.get(url.replace("/engine/", "/engine/0").replace("0/domrec", "/domrec")).status_code == 404
    names = zipfile.ZipFile(io.BytesIO(r.content)).namelist()
    for needed in ("domrec/session.py", "domrec/games/competitive.py", "domrec/locale/es/LC_MESSAGES/domrec.po",
                   "tournament/event/table_log.py", "tournament/event/phone.py", "tournament/event/phone_phrases.json",
                   "tournament/locale/es/LC_MESSAGES/tournament.po", "attrs/__init__.py", "attr/__init__.py",
                   "cattrs/__init__.py", "typing_extensions.py"):
        assert needed in names, needed
    assert not [n for n in names if n.split("/")[0] in ("orjson", "jsonschema", "rpds", "babel", "starlette")
                or n.endswith((".so", ".pyc"))]
    assert not [n for n in names if n.startswith("tournament/store") or n == "tournament/event/venue.py"]
    # the same bytes for the same code: a phone's cached copy holds (compared as a flag: pytest's
    # byte-by-byte account of two zips that differ took more than the test's ten minutes)
    same = engine_bundle.build(json.loads(zipfile.ZipFile(io.BytesIO(r.content)).read(
        "tournament/event/phone_phrases.json"))) == r.content
    assert same, "the bundle made again from the same code is not the one served"


def test_the_table_log_is_given_only_when_asked(served):
    server, client, token = served
    plain = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    assert "log" not in plain
    client.post("/api/v1/tables/1/1/mode", headers=_auth(token), json={"rev": 0, "mode": "play"})
    client.post("/api/v1/tables/1/1/call", headers=_auth(token), json={"rev": 1})
    log = client.get("/api/v1/tables/1/1?log=1", headers=_auth(token)).json()["log"]
    assert [row[:3] for row in log["rows"]] == [[1, "mode", "play"], [2, "call", ""]]
    assert log["template"]["game"] == "competitive" and log["facts"]["round"] == 1
    newer = client.get("/api/v1/tables/1/1?log=1&after=1", headers=_auth(token)).json()["log"]
    assert [row[:2] for row in newer["rows"]] == [[2, "call"]] and newer["after"] == 1
    only = client.get("/api/v1/tables/1/1?log=only&after=1", headers=_auth(token)).json()
    assert set(only) == {"rev", "log"} and only["rev"] == 2 and only["log"] == newer


@pytest.mark.slow
def test_a_built_wheel_ships_pyodide_and_the_engine(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(ROOT),
                    "-w", str(tmp_path)], check=True, capture_output=True, timeout=600)
    wheel = next(tmp_path.glob("domrec-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in fetch_pyodide.KEEP + ("PYODIDE.json",):
        assert f"tournament/web/static/pyodide/{name}" in names, name
    assert "tournament/web/static/engine.js" in names and "tournament/web/engine_bundle.py" in names
    assert "tournament/web/static/engine_worker.js" in names  # (the engine's Python runs in it)
    assert "tournament/event/phone.py" in names and "tournament/event/table_log.py" in names
