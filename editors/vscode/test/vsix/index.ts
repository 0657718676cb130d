// The released .vsix as a user gets it: installed into code-server's
// extensions folder (not loaded as the extension under development), with no
// externLsp.path, so the server is the binary the package carries. Driven by
// editors/ci/release_test.go, which bundles this file into a small harness
// extension of its own. Results go to <workspace>/.vscode-test-results.json.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { Api, code, folder, markdownText, ours, runSuite, Test, waitFor } from '../common';

async function openKernel(): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(path.join(folder(), 'kernels', 'scale_add.cpp'));
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

const tests: Test[] = [
  [
    'the installed extension starts the server it carries',
    async () => {
      const ext = vscode.extensions.getExtension<Api>('extern-lsp.extern-lsp');
      assert.ok(ext, 'extension extern-lsp.extern-lsp is not installed');
      await openKernel();
      const api = await ext.activate();
      await api.ready();
      assert.strictEqual(api.state, 'ready', `server state ${api.state}: ${api.reason}`);
      const bundled = path.join(ext.extensionPath, 'bin', `${process.platform}-${process.arch}`, 'extern-lsp');
      assert.strictEqual(api.serverPath, bundled);
      console.log(`extension ${ext.packageJSON.version} at ${ext.extensionPath}`);
    },
  ],
  [
    'a diagnostic on the kernel',
    async () => {
      const doc = await openKernel();
      const line = doc.getText().split('\n').findIndex((l) => l.includes('AscendC::SyncAll();'));
      const d = await waitFor('EXT004 from the bundled server', () => ours(doc.uri).find((d) => d.range.start.line === line));
      assert.strictEqual(code(d), 'EXT004', d.message);
    },
  ],
  [
    'a hover on args[0] names the Python parameter',
    async () => {
      const doc = await openKernel();
      const pos = doc.positionAt(doc.getText().indexOf('args[0]') + 5);
      const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos)) ?? [];
      const text = hovers.flatMap((h) => h.contents.map(markdownText)).join('\n');
      assert.match(text, /\bresult\b/, `hover: ${JSON.stringify(text)}`);
    },
  ],
];

export async function run(): Promise<void> {
  await runSuite('vsix', tests);
}
