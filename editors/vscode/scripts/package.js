// npm run package [-- target]: server binary for the target + bundle + .vsix.
// The default target is linux-x64; see build-server.js for other platforms.
const { execFileSync } = require('child_process');
const path = require('path');
const { build } = require('./build-server');

const target = process.argv[2] || 'linux-x64';
const dir = path.resolve(__dirname, '..');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: dir, stdio: 'inherit' });
build(target);
run('npm', ['run', 'build']);
// --target makes the package platform-specific; vsce keeps the binary's run bit.
// The extension lives in a subfolder of the repository, so vsce cannot derive
// where README links point on its own (it refuses relative images): name it.
const repo = 'https://github.com/extern-lsp/extern-lsp';
run(path.join(dir, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--target', target,
  '--baseContentUrl', `${repo}/blob/HEAD/editors/vscode/`, '--baseImagesUrl', `${repo}/raw/HEAD/editors/vscode/`,
  '--out', `extern-lsp-${target}.vsix`]);
