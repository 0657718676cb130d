// The released .vsix as a user gets it: installed into code-server's
// extensions folder (not loaded as the extension under development), with no
// externLsp.path, so the server is the binary the package carries. Driven by
// editors/ci/release_test.go; this module runs from a small test-harness
// extension. Results go to <workspace>/.vscode-test-results.json.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

const timeoutMs = 45000;

interface Api {
  readonly state: string;
  readonly reason: string;
  readonly serverPath: string | undefined;
  ready(): Promise<void>;
}

function folder(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'no workspace folder');
  return f.uri.fsPath;
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) {
      return v;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function openKernel(): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(path.join(folder(), 'kernels', 'scale_add.cpp'));
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

const tests: [string, () => Promise<void>][] = [];
function test(name: string, fn: () => Promise<void>): void {
  tests.push([name, fn]);
}

test('the installed extension starts the server it carries', async () => {
  const ext = vscode.extensions.getExtension<Api>('extern-lsp.extern-lsp');
  assert.ok(ext, 'extension extern-lsp.extern-lsp is not installed');
  await openKernel();
  const api = await ext.activate();
  await api.ready();
  assert.strictEqual(api.state, 'ready', `server state ${api.state}: ${api.reason}`);
  const bundled = path.join(ext.extensionPath, 'bin', `${process.platform}-${process.arch}`, 'extern-lsp');
  assert.strictEqual(api.serverPath, bundled);
  console.log(`extension ${ext.packageJSON.version} at ${ext.extensionPath}`);
});

test('a diagnostic on the kernel', async () => {
  const doc = await openKernel();
  const line = doc.getText().split('\n').findIndex((l) => l.includes('AscendC::SyncAll();'));
  const d = await waitFor('EXT004 from the bundled server', () =>
    vscode.languages.getDiagnostics(doc.uri).find((d) => d.source === 'extern-lsp' && d.range.start.line === line),
  );
  const code = typeof d.code === 'object' && d.code !== null ? String(d.code.value) : String(d.code);
  assert.strictEqual(code, 'EXT004', d.message);
});

test('a hover on args[0] names the Python parameter', async () => {
  const doc = await openKernel();
  const pos = doc.positionAt(doc.getText().indexOf('args[0]') + 5);
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos)) ?? [];
  const text = hovers
    .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')))
    .join('\n');
  assert.match(text, /\bresult\b/, `hover: ${JSON.stringify(text)}`);
});

export async function run(): Promise<void> {
  const results: { name: string; ok: boolean; error?: string; ms: number }[] = [];
  for (const [name, fn] of tests) {
    const t0 = Date.now();
    try {
      await fn();
      results.push({ name, ok: true, ms: Date.now() - t0 });
    } catch (e) {
      results.push({ name, ok: false, error: e instanceof Error ? e.stack ?? e.message : String(e), ms: Date.now() - t0 });
    }
  }
  const failed = results.filter((r) => !r.ok).length;
  console.log(`vsix: ${results.length - failed} passed, ${failed} failed`);
  fs.writeFileSync(path.join(folder(), '.vscode-test-results.json'), JSON.stringify({ vscode: vscode.version, results }, null, 1));
  if (failed > 0) {
    throw new Error(`${failed} vsix test(s) failed`);
  }
}
