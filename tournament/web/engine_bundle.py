"""The phone's engine as one zip: domrec's engine modules and the table's log, for Pyodide.

The table's page (``static/engine.js``) loads Pyodide from ``/static/pyodide/`` (vendored in the
package: ``static/pyodide/PYODIDE.json`` says which version, and ``tools/fetch_pyodide.py``
renews and checks it) and then this zip, served at :data:`PATH`, unpacked into the browser's
Python.  It is made from the installed package when the server first serves it, not kept in
the wheel: the phone runs exactly the code the server runs, whatever was installed.  It holds:

* ``domrec`` (every module, its catalogs and schema; no templates or pictures' scripts);
* of ``tournament``, what a table's write needs and no more: ``errors``, ``i18n`` and its
  catalogs, ``event/table_log`` and ``event/phone``, with the list of the server's sentences
  (``event/phone_phrases.json``: the very patterns the server translates its answers with) and
  a ``tournament/__init__`` of one line (the real one opens the SQLite layer);
* the pure-Python packages they import: ``attrs`` (and ``attr``), ``cattrs`` and
  ``typing_extensions``, copied from where they are installed.

orjson, jsonschema and Babel are left out (compiled, or tens of megabytes of locale data):
domrec reads JSON and its catalogs without them (``tests/test_pure_path.py``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import zipfile
from pathlib import Path
from typing import Iterable

#: Where the table's page fetches the bundle.
PATH = "/static/engine/domrec.zip"
#: The tournament modules the phone's engine imports (besides domrec).
TOURNAMENT_FILES = ("errors.py", "i18n.py", "event/__init__.py", "event/table_log.py", "event/phone.py")
#: Third-party pure-Python modules the engine imports: importable name -> kept as a package.
PURE = ("attr", "attrs", "cattrs", "typing_extensions")
#: What ``tournament/__init__.py`` is in the bundle.
STUB = '"""tournament, as the phone\'s engine holds it: the table\'s log and write only (see engine_bundle)."""\n'
#: The time every file of the zip is dated (the same bytes for the same code, so a phone's cache holds).
STAMP = (2020, 1, 1, 0, 0, 0)


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(f"{name} is not installed: the phone's engine needs it")
    origin = Path(spec.origin)
    return origin.parent if origin.name == "__init__.py" else origin


def _files(root: Path, under: str, keep: Iterable[str] = (".py",)) -> Iterable[tuple[str, Path]]:
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in keep:
            yield f"{under}/{path.relative_to(root).as_posix()}", path


def members(phrases: Iterable[str]) -> list[tuple[str, bytes]]:
    """The zip's files, as (name, bytes), in order."""
    import domrec
    import tournament

    out: list[tuple[str, bytes]] = []
    domrec_dir = Path(domrec.__file__).resolve().parent
    for name, path in _files(domrec_dir, "domrec", (".py", ".po", ".json")):
        out.append((name, path.read_bytes()))
    tour = Path(tournament.__file__).resolve().parent
    out.append(("tournament/__init__.py", STUB.encode()))
    for name in TOURNAMENT_FILES:
        out.append((f"tournament/{name}", (tour / name).read_bytes()))
    for name, path in _files(tour / "locale", "tournament/locale", (".po",)):
        out.append((name, path.read_bytes()))
    out.append(("tournament/event/phone_phrases.json", json.dumps(list(phrases), ensure_ascii=False).encode()))
    for name in PURE:
        found = _package_dir(name)
        if found.is_file():
            out.append((found.name, found.read_bytes()))
        else:
            out.extend((n, p.read_bytes()) for n, p in _files(found, name, (".py", ".typed")))
    return out


def build(phrases: Iterable[str]) -> bytes:
    """The zip, the same bytes for the same installed code (files in order, one date)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data in members(phrases):
            info = zipfile.ZipInfo(name, STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return buffer.getvalue()


def etag(data: bytes) -> str:
    return '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


# --- serving it ----------------------------------------------------------------------------------

#: The vendored Pyodide (``tools/fetch_pyodide.py``) and its record.
PYODIDE = Path(__file__).resolve().parent / "static" / "pyodide"
#: Content types, named here rather than guessed from the system's tables (a ``.wasm`` must be
#: ``application/wasm`` for the browser to compile it as it downloads).
TYPES = {".mjs": "text/javascript; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".wasm": "application/wasm", ".zip": "application/zip", ".json": "application/json",
         ".md": "text/plain; charset=utf-8"}
#: What is worth compressing on the way (the zips are compressed already).
COMPRESSED = (".mjs", ".js", ".wasm", ".json")
#: A versioned address never changes its bytes: a phone keeps them for a year, never asking again.
IMMUTABLE = "public, max-age=31536000, immutable"


class EngineFiles:
    """What the server serves of the phone's engine: the vendored Pyodide under an address that
    names its version (``/static/pyodide/VERSION/NAME``), and the bundle under one that names its
    digest (``/static/engine/DIGEST/domrec.zip``), so both are cached for good and a new version
    is a new address.  Each is read (and gzipped, where that helps) once, on first request, and
    kept in memory."""

    def __init__(self, phrases: Iterable[str]) -> None:
        import threading

        self._phrases = tuple(phrases)
        self._lock = threading.Lock()
        self._bundle: tuple[bytes, str] | None = None
        self._files: dict[tuple[str, bool], bytes] = {}
        record = json.loads((PYODIDE / "PYODIDE.json").read_text(encoding="utf-8"))
        self.version: str = record["version"]
        self._names = frozenset(record["files"])

    def bundle(self) -> tuple[bytes, str]:
        """The bundle's bytes and digest (made once)."""
        with self._lock:
            if self._bundle is None:
                data = build(self._phrases)
                self._bundle = (data, hashlib.sha256(data).hexdigest()[:20])
            return self._bundle

    def urls(self) -> dict[str, str]:
        """Where the table's page finds Pyodide (a folder) and the bundle."""
        return {"pyodide": f"/static/pyodide/{self.version}/", "bundle": f"/static/engine/{self.bundle()[1]}/domrec.zip"}

    def pyodide_file(self, version: str, name: str, gzipped: bool) -> tuple[bytes, str, bool] | None:
        """A vendored file's bytes, content type and whether they are gzipped; ``None`` for a
        version or a name that is not the vendored one's."""
        if version != self.version or name not in self._names or name == "PYODIDE.json":
            return None
        suffix = Path(name).suffix
        squeeze = gzipped and suffix in COMPRESSED
        with self._lock:
            data = self._files.get((name, squeeze))
            if data is None:
                import gzip

                data = (PYODIDE / name).read_bytes()
                if squeeze:
                    data = gzip.compress(data, compresslevel=6, mtime=0)
                self._files[(name, squeeze)] = data
        return data, TYPES.get(suffix, "application/octet-stream"), squeeze
