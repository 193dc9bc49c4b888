#!/usr/bin/env python3
"""Packs one release archive (run by `make dist` through scripts/dist/build).

    package.py --target TRIPLE --binary PATH --out DIR

The archive `chuhan-VERSION-NAME.{tar.gz,zip}` holds a folder of the same name
with the binary, README.md, LICENSE, CHANGES.md (this version's section of
CHANGELOG.md) and THIRD-PARTY-LICENSES.txt (the license files of every crate
compiled into the binary for that target, from `cargo metadata`). Prints the
archive's path and size.
"""
import argparse
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

NAMES = {
    "x86_64-unknown-linux-gnu": "x86_64-linux",
    "aarch64-unknown-linux-gnu": "aarch64-linux",
    "x86_64-pc-windows-gnu": "x86_64-windows",
}
LICENSE_FILE = re.compile(r"^(LICEN[CS]E|COPYING|NOTICE)", re.I)


def metadata(target):
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--filter-platform", target],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def shipped_packages(meta):
    """Every package the `chuhan` binary links: normal dependencies only."""
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    root = next(p["id"] for p in meta["packages"] if p["name"] == "chuhan")
    seen, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        for dep in nodes[pid]["deps"]:
            if any(k["kind"] is None for k in dep["dep_kinds"]):
                todo.append(dep["pkg"])
    members = set(meta["workspace_members"])
    return sorted((p for p in meta["packages"] if p["id"] in seen and p["id"] not in members),
                  key=lambda p: (p["name"], p["version"]))


def third_party(meta):
    parts = ["Third-party software compiled into this Chuhan binary, with the license\n"
             "texts its authors ship. Chuhan itself is under LICENSE (MIT).\n"]
    seen = {}  # license text -> the package that printed it first
    for p in shipped_packages(meta):
        parts.append("=" * 78)
        parts.append(f"{p['name']} {p['version']} — {p.get('license') or 'see files'}")
        if p.get("repository"):
            parts.append(p["repository"])
        folder = Path(p["manifest_path"]).parent
        files = sorted(f for f in folder.iterdir() if f.is_file() and LICENSE_FILE.match(f.name))
        if not files:
            parts.append("(the package ships no license file; its manifest names the license above)")
        for f in files:
            text = f.read_text(encoding="utf-8", errors="replace").rstrip()
            key = " ".join(text.split())
            if key in seen:
                parts.append(f"--- {f.name}: the same text as {seen[key]} above")
            else:
                seen[key] = f"{p['name']} {p['version']} {f.name}"
                parts.append(f"--- {f.name}")
                parts.append(text)
        parts.append("")
    return "\n".join(parts) + "\n"


def changes(version):
    text = Path("CHANGELOG.md").read_text(encoding="utf-8")
    m = re.search(rf"^## {re.escape(version)}\b.*?(?=^## |\Z)", text, re.M | re.S)
    if not m:
        sys.exit(f"CHANGELOG.md has no section for {version}")
    return m.group(0).rstrip() + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", required=True, choices=sorted(NAMES))
    ap.add_argument("--binary", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    meta = metadata(a.target)
    version = next(p["version"] for p in meta["packages"] if p["name"] == "chuhan")
    stem = f"chuhan-{version}-{NAMES[a.target]}"
    windows = "windows" in a.target
    files = {
        ("chuhan.exe" if windows else "chuhan"): Path(a.binary).read_bytes(),
        "README.md": Path("README.md").read_bytes(),
        "LICENSE": Path("LICENSE").read_bytes(),
        "CHANGES.md": changes(version).encode(),
        "THIRD-PARTY-LICENSES.txt": third_party(meta).encode(),
    }
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if windows:
        path = out / f"{stem}.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for name, data in files.items():
                text = name.endswith((".md", ".txt")) or name == "LICENSE"
                if text:  # Notepad-friendly line ends in the Windows archive.
                    data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
                z.writestr(f"{stem}/{name}", data)
    else:
        path = out / f"{stem}.tar.gz"
        with tarfile.open(path, "w:gz", compresslevel=9) as t:
            for name, data in files.items():
                info = tarfile.TarInfo(f"{stem}/{name}")
                info.size = len(data)
                info.mode = 0o755 if name == "chuhan" else 0o644
                info.mtime = int(os.environ.get("SOURCE_DATE_EPOCH", "0"))
                t.addfile(info, io.BytesIO(data))
    print(f"{path} {path.stat().st_size}")


if __name__ == "__main__":
    main()
