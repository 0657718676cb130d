# Installs what the editor tests need, once, into a cache outside the repo:
#   $EXTERN_LSP_CI_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/extern-lsp-ci)
# each marked by a .complete file once fully installed:
#     nvim-0.12/nvim   Neovim 0.12 (Debian forky), for vim.lsp.config/enable
#     nvim-0.10/nvim   Neovim 0.10 (Debian trixie), for setup() via vim.lsp.start
#     helix/hx         Helix 25.07 (Debian forky's hx), driven in a pty by `script`
#     code-server/     code-server 4.100.3 (VS Code 1.100) + playwright-core
# plus Debian packages (chromium, emacs-nox + elpa-eglot, vim-ale, patchelf, ...)
# when running as root with apt-get, and editors/vscode/node_modules (npm ci).
# For the release artifact tests (editors/ci/release_test.go) also the arm64
# cross compiler (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross), qemu-user to
# run its binary, and python3-venv when python3 cannot make a venv.
#
# Usage: install.sh [PROVIDED_FILE]
# Every editor is installed on a best-effort basis: one that cannot be
# installed here (no such package, no network, not root) is reported as
# `SKIP <editor>: <why>` and the others still install. The editors that are
# ready to run (nvim, nvim-0.10, helix, vscode, emacs, vim, and arm64 and
# wheel for the release artifacts) are printed and written
# to PROVIDED_FILE, which .ci/run hands to the tests as the editors they
# must not skip. Exits non-zero only on a broken invocation.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CACHE=${EXTERN_LSP_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/extern-lsp-ci}
mkdir -p "$CACHE"
# One install at a time per cache: two checkouts running .ci/run on one
# machine would otherwise unpack into the same directories.
exec 9>"$CACHE/.lock"
command -v flock >/dev/null && flock 9
log() { echo "editors/ci/install: $*"; }

# Debian packages. Only missing ones, so a warm machine does no apt work. If
# the whole set cannot be installed (one package missing from this
# distribution's suite), each is tried alone so the others still arrive.
emacs_major() { { emacs --version 2>/dev/null || true; } | sed -n '1s/^GNU Emacs \([0-9]*\).*/\1/p'; }
has_eglot() {
  local m; m=$(emacs_major)
  [ -n "$m" ] && [ "$m" -ge 29 ] || ls -d /usr/share/emacs/site-lisp/elpa/eglot-* >/dev/null 2>&1
}
has_ale() { [ -f /usr/share/vim-ale/plugin/ale.vim ]; }
need=()
command -v patchelf >/dev/null || need+=(patchelf)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v rg >/dev/null || need+=(ripgrep)
[ -e /usr/include/krb5.h ] || [ -e /usr/include/gssapi/gssapi.h ] || need+=(libkrb5-dev)
command -v emacs >/dev/null || need+=(emacs-nox)
has_eglot || need+=(elpa-eglot)
command -v vim >/dev/null || need+=(vim)
has_ale || need+=(vim-ale)
has_cross() { command -v aarch64-linux-gnu-gcc >/dev/null && [ -f /usr/aarch64-linux-gnu/lib/libc.a ]; }
has_qemu() { command -v qemu-aarch64 >/dev/null || command -v qemu-aarch64-static >/dev/null; }
has_venv() { command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null; }
has_cross || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
has_qemu || need+=(qemu-user)
has_venv || need+=(python3-venv)
apt_why=""
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "apt-get install ${need[*]}"
    : >"$CACHE/apt.log"
    apt-get update -qq >>"$CACHE/apt.log" 2>&1 || log "apt-get update failed (see $CACHE/apt.log)"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >>"$CACHE/apt.log" 2>&1 </dev/null; then
      for p in "${need[@]}"; do
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" >>"$CACHE/apt.log" 2>&1 </dev/null ||
          { log "apt-get install $p failed (see $CACHE/apt.log)"; apt_why="$apt_why $p"; }
      done
    fi
  else
    apt_why=" (not root or no apt-get: ${need[*]} not installed)"
  fi
fi
apt_failed() { # why a Debian package an editor needs is missing
  if [ -n "$apt_why" ]; then echo "apt-get could not install:$apt_why"; else echo "not installed"; fi
}

# Neovim 0.12 and 0.10, unpacked from newer Debian suites (the two installs are
# independent, so run them side by side). get-neovim.sh patches absolute
# library paths into the binary, so it installs in place; .complete marks a
# finished install.
pids=()
for v in 0.12:forky 0.10:trixie; do
  ver=${v%%:*} suite=${v#*:} dir="$CACHE/nvim-${v%%:*}"
  if [ ! -f "$dir/.complete" ]; then
    ( rm -rf "$dir" && "$HERE/get-neovim.sh" "$suite" "$dir" >"$CACHE/nvim-$ver.log" 2>&1 && touch "$dir/.complete" ) & pids+=($!)
  fi
done
# Helix (Debian's hx, forky and later), unpacked the same way.
if [ ! -f "$CACHE/helix/.complete" ]; then
  ( rm -rf "$CACHE/helix" && "$HERE/get-helix.sh" forky "$CACHE/helix" >"$CACHE/helix.log" 2>&1 && touch "$CACHE/helix/.complete" ) & pids+=($!)
fi
# code-server (VS Code's real extension host) for the VS Code integration suite.
if [ ! -f "$CACHE/code-server/.complete" ]; then
  ( "$HERE/setup-code-server.sh" "$CACHE/code-server" >"$CACHE/code-server.log" 2>&1 && touch "$CACHE/code-server/.complete" ) & pids+=($!)
fi
# The extension's own dependencies (lockfile-exact).
if command -v npm >/dev/null; then
  ( cd "$ROOT/editors/vscode" &&
    if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
      npm ci --no-audit --no-fund >"$CACHE/npm-ci.log" 2>&1 </dev/null
    fi ) & pids+=($!)
fi
for p in "${pids[@]}"; do wait "$p" || true; done

# What is ready to run, probed rather than assumed: each editor is provided
# only if it starts here.
provided=()
skip() { echo "SKIP $1: $2"; }
last() { [ -f "$1" ] && tail -1 "$1" | tr -d '\r' | cut -c1-200; }
ready=()
if v=$("$CACHE/nvim-0.12/nvim" --version 2>/dev/null | head -1) && [ -f "$CACHE/nvim-0.12/.complete" ]; then
  provided+=(nvim) ready+=("$v")
else skip nvim "Neovim 0.12 did not install ($(last "$CACHE/nvim-0.12.log"); see $CACHE/nvim-0.12.log)"; fi
if v=$("$CACHE/nvim-0.10/nvim" --version 2>/dev/null | head -1) && [ -f "$CACHE/nvim-0.10/.complete" ]; then
  provided+=(nvim-0.10) ready+=("$v")
else skip nvim-0.10 "Neovim 0.10 did not install ($(last "$CACHE/nvim-0.10.log"); see $CACHE/nvim-0.10.log)"; fi
cs=$("$CACHE/code-server/node_modules/.bin/code-server" --version 2>/dev/null | head -1 | cut -d' ' -f1 || true)
if [ -z "$cs" ] || [ ! -f "$CACHE/code-server/.complete" ]; then
  skip vscode "code-server did not install ($(last "$CACHE/code-server.log"); see $CACHE/code-server.log)"
elif [ ! -x /usr/bin/chromium ]; then skip vscode "no /usr/bin/chromium: $(apt_failed)"
elif ! command -v npm >/dev/null; then skip vscode "no npm on PATH"
elif [ ! -d "$ROOT/editors/vscode/node_modules/vscode-languageclient" ]; then
  skip vscode "npm ci in editors/vscode failed ($(last "$CACHE/npm-ci.log"); see $CACHE/npm-ci.log)"
else provided+=(vscode) ready+=("code-server $cs"); fi
if v=$("$CACHE/helix/hx" --version 2>/dev/null | head -1) && [ -f "$CACHE/helix/.complete" ] && command -v script >/dev/null; then
  provided+=(helix) ready+=("$v")
elif [ -f "$CACHE/helix/.complete" ]; then skip helix "no \`script\` (util-linux) to give Helix a terminal"
else skip helix "Helix did not install ($(last "$CACHE/helix.log"); see $CACHE/helix.log)"; fi
if ! command -v emacs >/dev/null; then skip emacs "no emacs on PATH: $(apt_failed)"
elif ! has_eglot; then skip emacs "Emacs $(emacs_major) without eglot: $(apt_failed)"
else provided+=(emacs) ready+=("Emacs $(emacs_major)"); fi
if ! command -v vim >/dev/null; then skip vim "no vim on PATH: $(apt_failed)"
elif ! has_ale; then skip vim "no ALE (/usr/share/vim-ale): $(apt_failed)"
else provided+=(vim) ready+=("vim + ALE"); fi

# The release artifact tests: the arm64 build run under qemu, and the wheel
# installed into a fresh venv.
if ! has_cross; then skip arm64 "no aarch64-linux-gnu-gcc with libc.a: $(apt_failed)"
elif ! has_qemu; then skip arm64 "no qemu-aarch64: $(apt_failed)"
else provided+=(arm64) ready+=("aarch64-linux-gnu-gcc + qemu-aarch64"); fi
if has_venv; then provided+=(wheel) ready+=("$(python3 --version) venv")
else skip wheel "python3 cannot make a venv (no venv/ensurepip): $(apt_failed)"; fi

log "ready in $CACHE: ${ready[*]:-nothing}"
log "provided: ${provided[*]:-none}"
[ -n "${1:-}" ] && echo "${provided[*]:-}" >"$1"
exit 0
