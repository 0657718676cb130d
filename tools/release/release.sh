#!/usr/bin/env bash
# Builds the release artifacts a user installs without Go, gcc or Node:
#
#   tools/release/release.sh [--out DIR] [--no-vsix] [TARGET...]
#
# TARGET is linux-x64 or linux-arm64 (default: both). For each it writes to
# DIR (default dist/):
#   extern-lsp-VERSION-TARGET.tar.gz      the binary, README.md, docs/rules.md
#   extern_lsp-VERSION-py3-none-manylinux_2_17_ARCH.whl
#                                         `pip install` puts extern-lsp on PATH
#   extern-lsp-VERSION-TARGET.vsix        the VS Code extension with the binary
# and SHA256SUMS over all of them (`sha256sum -c SHA256SUMS`). --no-vsix skips
# the extensions (they need editors/vscode/node_modules: npm ci).
#
# VERSION (the file at the top of the repository) is the one version: it goes
# into the binary (-X main.version, printed by `extern-lsp version`) and the
# wheel's metadata, and must equal editors/vscode/package.json's version.
#
# The binaries are static (glibc linked in, netgo/osusergo so nothing is
# loaded at run time), so one file runs on any Linux of its architecture:
# the manylinux_2_17 tag holds, and qemu-user runs the arm64 one as is.
# linux-arm64 is cross-compiled with Debian's aarch64-linux-gnu-gcc
# (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross; editors/ci/install.sh
# installs them). Compiled packages stay in Go's build cache, so a second
# release only links.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
out=$ROOT/dist vsix=1 targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    --no-vsix) vsix=; shift ;;
    linux-x64|linux-arm64) targets+=("$1"); shift ;;
    *) echo "usage: $0 [--out DIR] [--no-vsix] [linux-x64] [linux-arm64]" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(linux-x64 linux-arm64)
mkdir -p "$out"
out=$(cd "$out" && pwd)
log() { echo "release: $*" >&2; }

version=$(tr -d ' \n' <"$ROOT/VERSION")
pkg=$(node -p 'require(process.argv[1]).version' "$ROOT/editors/vscode/package.json" 2>/dev/null ||
  sed -n 's/^  "version": "\(.*\)",$/\1/p' "$ROOT/editors/vscode/package.json")
if [ "$pkg" != "$version" ]; then
  echo "release: VERSION says $version but editors/vscode/package.json says $pkg" >&2
  exit 1
fi

# One static binary for a target into $2.
build() {
  local target=$1 dest=$2 goarch cc
  case $target in
    linux-x64) goarch=amd64 cc=${CC_LINUX_X64:-gcc} ;;
    linux-arm64) goarch=arm64 cc=${CC_LINUX_ARM64:-aarch64-linux-gnu-gcc} ;;
  esac
  command -v "$cc" >/dev/null || { echo "release: no C compiler $cc for $target (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross)" >&2; exit 1; }
  mkdir -p "$(dirname "$dest")"
  (cd "$ROOT" && CGO_ENABLED=1 GOOS=linux GOARCH=$goarch CC=$cc go build -tags netgo,osusergo \
    -ldflags "-s -w -X main.version=$version -linkmode external -extldflags -static" -o "$dest" ./cmd/extern-lsp)
}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
made=()
ext=$stage/vscode
if [ -n "$vsix" ]; then
  # Package from a copy, so a test or a developer building in editors/vscode
  # meanwhile neither changes the package nor sees its bin/ change; the
  # extension's code is the same for every target, so it is bundled once.
  mkdir -p "$ext"
  (cd "$ROOT/editors/vscode" && tar --exclude=./node_modules --exclude=./bin --exclude=./out --exclude=./dist --exclude='./*.vsix' -cf - .) | tar -C "$ext" -xf -
  ln -s "$ROOT/editors/vscode/node_modules" "$ext/node_modules"
  (cd "$ext" && npm run build >"$stage/npm-build.log" 2>&1) || { cat "$stage/npm-build.log" >&2; exit 1; }
fi
for target in "${targets[@]}"; do
  case $target in linux-x64) plat=manylinux_2_17_x86_64 ;; linux-arm64) plat=manylinux_2_17_aarch64 ;; esac
  name=extern-lsp-$version-$target
  bin=$stage/$name/extern-lsp
  log "building $target"
  build "$target" "$bin"
  mkdir -p "$stage/$name/docs"
  cp "$ROOT/README.md" "$stage/$name/"
  cp "$ROOT/docs/rules.md" "$stage/$name/docs/"
  # Fixed owner, order and time: the same binary gives the same archive.
  tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@315532800 -cf - "$name" | gzip -n >"$out/$name.tar.gz"
  made+=("$name.tar.gz")
  made+=("$(basename "$(python3 "$ROOT/tools/release/wheel.py" "$bin" "$version" "$plat" "$out" "$ROOT/README.md")")")
  if [ -n "$vsix" ]; then
    log "packaging the $target extension"
    (cd "$ext" && node scripts/package.js "$target" --no-build --binary "$bin" --out "$out/$name.vsix" >"$stage/vsce-$target.log" 2>&1) ||
      { cat "$stage/vsce-$target.log" >&2; exit 1; }
    made+=("$name.vsix")
  fi
done
(cd "$out" && sha256sum "${made[@]}" >SHA256SUMS)
log "wrote to $out:"
(cd "$out" && ls -l "${made[@]}" SHA256SUMS) >&2
