#!/bin/bash
# Usage: get-helix.sh SUITE PREFIX
# Unpacks Helix (Debian package `hx`, in forky and later, not in bookworm)
# plus the glibc it needs into PREFIX, without touching the system's apt
# state, and makes PREFIX/hx runnable on this machine's older glibc (as
# get-neovim.sh does for Neovim). Needs patchelf.
set -euo pipefail
SUITE=${1:?suite, e.g. forky} PREFIX=$(realpath -m "${2:?prefix dir}") W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
command -v patchelf >/dev/null || { echo "get-helix: patchelf is needed" >&2; exit 1; }
MIRROR=$(grep -hm1 '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}')
[ -n "$MIRROR" ] || MIRROR=$(grep -hm1 '^deb ' /etc/apt/sources.list | awk '{print $2}')
mkdir -p "$W/lists/partial" "$W/cache/archives/partial"
echo "deb $MIRROR $SUITE main" > "$W/sources.list"
O=(-o Acquire::Languages=none -o Dir::Etc::SourceList="$W/sources.list" -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$W/lists"
   -o Dir::Cache="$W/cache" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt-get "${O[@]}" update -qq
( cd "$W" && for p in hx libc6 libgcc-s1; do apt-get "${O[@]}" download -qq "$p"; done )
mkdir -p "$PREFIX"
for d in "$W"/*.deb; do dpkg-deb -x "$d" "$PREFIX"; done
L=$PREFIX/usr/lib/x86_64-linux-gnu
patchelf --set-interpreter "$L/ld-linux-x86-64.so.2" --set-rpath "$L" "$PREFIX/usr/bin/hx"
cat > "$PREFIX/hx" <<WRAP
#!/bin/sh
P=\$(dirname "\$(readlink -f "\$0")")
export HELIX_RUNTIME=\${HELIX_RUNTIME:-\$P/usr/lib/hx/runtime}
exec "\$P/usr/bin/hx" "\$@"
WRAP
chmod +x "$PREFIX/hx"
"$PREFIX/hx" --version | head -1
