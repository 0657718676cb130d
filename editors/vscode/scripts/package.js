// npm run package [-- target] [--binary FILE] [--out FILE.vsix] [--no-build]:
// the server binary for the target + bundle + a platform-specific .vsix. The
// default target is linux-x64, built here (see build-server.js for other
// platforms); --binary bundles a binary built elsewhere and --no-build reuses
// dist/ (tools/release/release.sh builds once for all its targets).
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { build, binaryPath } = require('./build-server');

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args.splice(i, 2)[1];
};
const binary = flag('--binary');
const noBuild = args.includes('--no-build') && args.splice(args.indexOf('--no-build'), 1);
const dir = path.resolve(__dirname, '..');
const target = args[0] || 'linux-x64';
const out = path.resolve(flag('--out') || path.join(dir, `extern-lsp-${target}.vsix`));
const run = (cmd, argv) => execFileSync(cmd, argv, { cwd: dir, stdio: 'inherit' });
// bin/ is packaged whole: only this target's binary may be in it.
fs.rmSync(path.join(dir, 'bin'), { recursive: true, force: true });
if (binary) {
  const dest = binaryPath(target);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.copyFileSync(binary, dest);
  fs.chmodSync(dest, 0o755);
} else {
  build(target);
}
if (!noBuild) {
  run('npm', ['run', 'build']);
}
// --target makes the package platform-specific; vsce keeps the binary's run bit.
// The extension lives in a subfolder of the repository, so vsce cannot derive
// where README links point on its own (it refuses relative images): name it.
const repo = 'https://github.com/extern-lsp/extern-lsp';
run(path.join(dir, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--target', target,
  '--baseContentUrl', `${repo}/blob/HEAD/editors/vscode/`, '--baseImagesUrl', `${repo}/raw/HEAD/editors/vscode/`,
  '--out', out]);
