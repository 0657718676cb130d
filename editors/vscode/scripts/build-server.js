// Builds the Go server into bin/<platform>-<arch>/ for the extension to bundle.
// usage: node scripts/build-server.js [target]   (target as vsce names it:
// linux-x64 (default: this machine), linux-arm64, darwin-arm64, win32-x64, ...)
// Other targets need cgo cross-compilation (tree-sitter is C): set CC to a
// cross compiler for the target, e.g. CC=aarch64-linux-gnu-gcc. The release
// binaries (static, both Linux targets) come from tools/release/release.sh.
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const goos = { linux: 'linux', darwin: 'darwin', win32: 'windows', alpine: 'linux' };
const goarch = { x64: 'amd64', arm64: 'arm64', armhf: 'arm' };
const root = path.resolve(__dirname, '..', '..', '..');

function binaryPath(target) {
  const exe = target.startsWith('win32-') ? 'extern-lsp.exe' : 'extern-lsp';
  return path.resolve(__dirname, '..', 'bin', target, exe);
}

function build(target) {
  const [platform, arch] = target.split('-');
  if (!goos[platform] || !goarch[arch]) {
    throw new Error(`unknown target ${target}`);
  }
  const out = binaryPath(target);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // The one version (VERSION at the top of the repository), as the release sets it.
  const version = fs.readFileSync(path.join(root, 'VERSION'), 'utf8').trim();
  const env = { ...process.env, GOOS: goos[platform], GOARCH: goarch[arch], CGO_ENABLED: '1' };
  execFileSync('go', ['build', `-ldflags=-s -w -X main.version=${version}`, '-o', out, './cmd/extern-lsp'], { cwd: root, env, stdio: 'inherit' });
  fs.chmodSync(out, 0o755);
  console.log(`built ${path.relative(process.cwd(), out)}`);
  return out;
}

module.exports = { build, binaryPath };

if (require.main === module) {
  build(process.argv[2] || `${process.platform}-${process.arch}`);
}
