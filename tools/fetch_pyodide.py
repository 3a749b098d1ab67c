"""Fetch (or check) the Pyodide the table's phone runs domrec's engine with.

The venue serves Pyodide from the package (``tournament/web/static/pyodide/``), never from the
internet: the hall's phones reach the laptop only.  This fetches a named version of the
``pyodide`` package from the npm registry with npm's own client (``npm pack``), checks the
tarball against the integrity hash the registry gives for it, keeps only the files a page needs,
and writes ``PYODIDE.json`` beside them: the version, the tarball's integrity hash, and each kept
file's SHA-256 (``tests/tournament/test_pyodide_vendored.py`` checks the files against it).

    python tools/fetch_pyodide.py 314.0.8      # fetch, verify, replace the vendored copy
    python tools/fetch_pyodide.py --check      # the vendored files against PYODIDE.json
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "tournament" / "web" / "static" / "pyodide"
RECORD = "PYODIDE.json"
#: The files a page needs (``pyodide.mjs`` loads the others), and the package's description
#: (``package.json``: its licence, MPL-2.0, and where it comes from; the package ships no licence file).
KEEP = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
        "package.json", "README.md")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check(folder: Path = HERE) -> list[str]:
    """What differs between the vendored files and their record (nothing: an empty list)."""
    record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    wrong = []
    for name, digest in record["files"].items():
        path = folder / name
        if not path.is_file():
            wrong.append(f"{name}: missing")
        elif sha256(path) != digest:
            wrong.append(f"{name}: its SHA-256 is not the one recorded")
    extra = {p.name for p in folder.iterdir()} - set(record["files"]) - {RECORD}
    wrong += [f"{name}: not recorded" for name in sorted(extra)]
    return wrong


def fetch(version: str, folder: Path = HERE) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        packed = json.loads(subprocess.run(["npm", "pack", f"pyodide@{version}", "--json"], cwd=tmp, check=True,
                                           capture_output=True, text=True).stdout)[0]
        expected = subprocess.run(["npm", "view", f"pyodide@{version}", "dist.integrity"], check=True,
                                  capture_output=True, text=True).stdout.strip()
        tarball = Path(tmp) / packed["filename"]
        algo, _, want = expected.partition("-")
        got = base64.b64encode(hashlib.new(algo, tarball.read_bytes()).digest()).decode()
        if got != want:
            raise SystemExit(f"pyodide@{version}: the tarball's {algo} is not the registry's ({expected})")
        with tarfile.open(tarball) as tar:
            tar.extractall(tmp, filter="data")
        unpacked = Path(tmp) / "package"
        missing = [name for name in KEEP if not (unpacked / name).is_file()]
        if missing:
            raise SystemExit(f"pyodide@{version} has no {', '.join(missing)}: pick another version")
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for name in KEEP:
            shutil.copy2(unpacked / name, folder / name)
        meta = json.loads((unpacked / "package.json").read_text(encoding="utf-8"))
        record = {"package": "pyodide", "version": meta["version"], "integrity": expected,
                  "licence": meta.get("license"), "source": f"npm registry, pyodide@{meta['version']}",
                  "files": {name: sha256(folder / name) for name in KEEP}}
        (folder / RECORD).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("version", nargs="?", help="the pyodide version to fetch, e.g. 314.0.8")
    parser.add_argument("--check", action="store_true", help="check the vendored files against their record")
    args = parser.parse_args(argv)
    if args.check or not args.version:
        wrong = check()
        print("\n".join(wrong) if wrong else f"the vendored Pyodide is as recorded in {RECORD}")
        return 1 if wrong else 0
    record = fetch(args.version)
    print(f"pyodide {record['version']} vendored in {HERE} ({record['integrity']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
