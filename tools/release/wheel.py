#!/usr/bin/env python3
"""Builds a platform wheel that puts the extern-lsp binary on PATH.

usage: wheel.py BINARY VERSION PLATFORM_TAG OUT_DIR README

The wheel is laid out the way ruff ships its binary: the executable sits in
extern_lsp-VERSION.data/scripts/, which pip installs into the environment's
bin/ (keeping the run bit from the zip entry), next to a small `extern_lsp`
package so `python -m extern_lsp` works too. Only the standard library is
used (zipfile, hashlib), so no wheel-building package has to be installed.
Entries are written in a fixed order with a fixed timestamp, so the same
inputs give the same bytes.
"""

import base64
import hashlib
import os
import re
import sys
import zipfile

# 1980-01-01, the earliest time a zip entry can hold: builds are reproducible.
STAMP = (1980, 1, 1, 0, 0, 0)

MAIN = '''"""Runs the extern-lsp binary this wheel installed into the scripts folder."""
import os
import sys
import sysconfig


def find_extern_lsp_bin():
    """Path of the extern-lsp executable installed with this package."""
    exe = "extern-lsp" + (sysconfig.get_config_var("EXE") or "")
    for scheme in (None, "posix_user"):
        try:
            d = sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
        except KeyError:
            continue
        p = os.path.join(d, exe)
        if os.path.isfile(p):
            return p
    raise FileNotFoundError(exe)


def main():
    exe = find_extern_lsp_bin()
    os.execv(exe, [exe, *sys.argv[1:]])
'''

MAIN_MODULE = '''from extern_lsp import main

main()
'''


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def build(binary, version, plat, out_dir, readme):
    # PEP 440 release versions only: pip rejects a wheel whose file name or
    # metadata carries anything else (a git describe suffix, a "-dev").
    if not re.fullmatch(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", version):
        raise SystemExit(f"wheel.py: {version!r} is not a PEP 440 version")
    dist = f"extern_lsp-{version}"
    tag = f"py3-none-{plat}"
    with open(readme, encoding="utf-8") as f:
        description = f.read()
    metadata = "\n".join([
        "Metadata-Version: 2.1",
        "Name: extern-lsp",
        f"Version: {version}",
        "Summary: Language server and checker for hand-written AscendC extern kernels",
        "Home-page: https://github.com/extern-lsp/extern-lsp",
        "License: SEE README",
        "Requires-Python: >=3.7",
        "Description-Content-Type: text/markdown",
        "",
        description,
    ])
    wheel = "\n".join([
        "Wheel-Version: 1.0",
        "Generator: extern-lsp tools/release/wheel.py",
        "Root-Is-Purelib: false",
        f"Tag: {tag}",
        "",
    ])
    with open(binary, "rb") as f:
        exe = f.read()
    entries = [
        (f"{dist}.data/scripts/extern-lsp", exe, 0o755),
        ("extern_lsp/__init__.py", MAIN.encode(), 0o644),
        ("extern_lsp/__main__.py", MAIN_MODULE.encode(), 0o644),
        (f"{dist}.dist-info/METADATA", metadata.encode(), 0o644),
        (f"{dist}.dist-info/WHEEL", wheel.encode(), 0o644),
    ]
    record = f"{dist}.dist-info/RECORD"
    lines = [f"{name},{record_hash(data)},{len(data)}" for name, data, _ in entries]
    lines.append(f"{record},,")
    entries.append((record, ("\n".join(lines) + "\n").encode(), 0o644))

    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{dist}-{tag}.whl")
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name, STAMP)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(tmp, path)
    print(path)


if __name__ == "__main__":
    if len(sys.argv) != 6:
        raise SystemExit(__doc__.split("\n\n")[1])
    build(*sys.argv[1:])
