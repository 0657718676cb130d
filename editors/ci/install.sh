#!/bin/bash
# Installs what the editor tests need, once, into a cache outside the repo:
#   $EXTERN_LSP_CI_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/extern-lsp-ci)
# each marked by a .complete file once fully installed:
#     nvim-0.12/nvim   Neovim 0.12 (Debian forky), for vim.lsp.config/enable
#     nvim-0.10/nvim   Neovim 0.10 (Debian trixie), for setup() via vim.lsp.start
#     code-server/     code-server 4.100.3 (VS Code 1.100) + playwright-core
# plus Debian packages (chromium, emacs-nox + elpa-eglot, vim-ale, patchelf, ...)
# when running as root with apt-get, and editors/vscode/node_modules (npm ci).
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

# Debian packages. Only missing ones, so a warm machine does no apt work.
need=()
command -v patchelf >/dev/null || need+=(patchelf)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v rg >/dev/null || need+=(ripgrep)
[ -e /usr/include/krb5.h ] || [ -e /usr/include/gssapi/gssapi.h ] || need+=(libkrb5-dev)
command -v emacs >/dev/null || need+=(emacs-nox)
emacs_major=$(emacs --version 2>/dev/null | head -1 | sed -n 's/^GNU Emacs \([0-9]*\).*/\1/p')
if [ -z "$emacs_major" ] || [ "$emacs_major" -lt 29 ]; then
  [ -d /usr/share/emacs/site-lisp/elpa/eglot-1.9 ] || ls -d /usr/share/emacs/site-lisp/elpa/eglot-* >/dev/null 2>&1 || need+=(elpa-eglot)
fi
command -v vim >/dev/null || need+=(vim)
[ -d /usr/share/vim-ale ] || [ -d /usr/share/vim/addons/autoload/ale ] || dpkg -s vim-ale >/dev/null 2>&1 || need+=(vim-ale)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "apt-get install ${need[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >"$CACHE/apt.log" 2>&1 ||
      { tail -20 "$CACHE/apt.log"; exit 1; }
  else
    log "missing ${need[*]} (not root or no apt-get): the tests that need them will skip"
  fi
fi

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
# code-server (VS Code's real extension host) for the VS Code integration suite.
if [ ! -f "$CACHE/code-server/.complete" ]; then
  ( "$HERE/setup-code-server.sh" "$CACHE/code-server" >"$CACHE/code-server.log" 2>&1 && touch "$CACHE/code-server/.complete" ) & pids+=($!)
fi
# The extension's own dependencies (lockfile-exact).
( cd "$ROOT/editors/vscode" &&
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund >"$CACHE/npm-ci.log" 2>&1 || { tail -20 "$CACHE/npm-ci.log"; exit 1; }
  fi ) & pids+=($!)
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
if [ $rc != 0 ]; then
  for f in nvim-0.12.log nvim-0.10.log code-server.log npm-ci.log; do
    [ -f "$CACHE/$f" ] && { echo "--- $f"; tail -15 "$CACHE/$f"; }
  done
  exit 1
fi
# Fail here, not in the tests, when an install does not run.
n12=$("$CACHE/nvim-0.12/nvim" --version | head -1)
n10=$("$CACHE/nvim-0.10/nvim" --version | head -1)
cs=$("$CACHE/code-server/node_modules/.bin/code-server" --version | head -1 | cut -d' ' -f1)
log "ready in $CACHE: $n12, $n10, code-server $cs"
