#!/bin/bash
# Regenerates images/screenshot.png: code-server (from editors/ci/install.sh's
# cache) with this extension on testdata/editors/ws, a freshly built server,
# the bare SyncAll() squiggled and the hover on args[3] open.
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd); ROOT=$(cd "$HERE/../.." && pwd)
CACHE=${EXTERN_LSP_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/extern-lsp-ci}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
(cd "$ROOT" && go build -o "$T/extern-lsp" ./cmd/extern-lsp)
cp -r "$ROOT/testdata/editors/ws" "$T/ws"
cat > "$T/settings.json" <<JSON
{ "security.workspace.trust.enabled": false, "telemetry.telemetryLevel": "off", "workbench.startupEditor": "none",
  "extensions.autoCheckUpdates": false, "extensions.autoUpdate": false, "update.mode": "none",
  "workbench.colorTheme": "Default Dark Modern", "editor.fontSize": 14, "editor.minimap.enabled": false,
  "editor.inlayHints.enabled": "on", "externLsp.path": "$T/extern-lsp" }
JSON
(cd "$HERE" && npm run build >/dev/null)
SCREENSHOT="$HERE/images/screenshot.png" CS_DIR="$CACHE/code-server" PORT=${PORT:-8137} \
  bash "$ROOT/editors/ci/run-vscode-tests.sh" "$HERE" "$HERE/out/test/screenshot/index.js" "$T/ws" "$T/settings.json" | grep -v '^\[page\]'
