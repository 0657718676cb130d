// Integration tests inside a real VS Code extension host (code-server, driven
// headless by editors/ci/run-vscode-tests.sh from vscode_test.go). The
// workspace is a copy of testdata/editors/ws; user settings point
// externLsp.path at a freshly built server. Results go to
// <workspace>/.vscode-test-results.json for the Go test to report.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { Api as BaseApi, code, folder, markdownText, ours, runSuite, Test, waitFor } from '../common';

const extensionId = 'extern-lsp.extern-lsp';
const names = ['result', 'lhs', 'rhs', 'elem_count', 'alpha'];

interface Api extends BaseApi {
  dimmedLines(uri: vscode.Uri): number[];
}

function hasCode(uri: vscode.Uri, c: string): boolean {
  return ours(uri).some((d) => code(d) === c);
}

/** `// want "re"` comments: the project's fixture convention (regexp over "CODE message"). */
function wants(doc: vscode.TextDocument): { line: number; re: RegExp }[] {
  const out: { line: number; re: RegExp }[] = [];
  for (let i = 0; i < doc.lineCount; i++) {
    for (const m of doc.lineAt(i).text.matchAll(/(?:\/\/|#) want "((?:[^"\\]|\\.)*)"/g)) {
      out.push({ line: i, re: new RegExp(m[1].replace(/\\"/g, '"')) });
    }
  }
  return out;
}

function find(doc: vscode.TextDocument, needle: string): vscode.Position {
  const off = doc.getText().indexOf(needle);
  assert.ok(off >= 0, `${needle} not in ${doc.uri.fsPath}`);
  return doc.positionAt(off);
}

async function openKernel(): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(path.join(folder(), 'kernels', 'scale_add.cpp'));
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
  return doc;
}

async function revert(doc: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
  await vscode.commands.executeCommand('workbench.action.files.revert');
  await waitFor('EXT004 after revert', () => (hasCode(doc.uri, 'EXT004') ? true : undefined));
}

const tests: Test[] = [];
function test(name: string, fn: () => Promise<void>): void {
  tests.push([name, fn]);
}

let api: Api;

test('activates and starts the server from externLsp.path', async () => {
  const ext = vscode.extensions.getExtension<Api>(extensionId);
  assert.ok(ext, `extension ${extensionId} not loaded`);
  await openKernel();
  api = await ext.activate();
  await api.ready();
  assert.strictEqual(api.state, 'ready', `server state ${api.state}: ${api.reason}`);
  const configured = vscode.workspace.getConfiguration('externLsp').get<string>('path');
  assert.strictEqual(api.serverPath, configured);
});

test('publishes the expected diagnostics on the kernel', async () => {
  const doc = await openKernel();
  const want = wants(doc);
  assert.ok(want.length > 0, 'fixture has no want comments');
  const got = await waitFor('extern-lsp diagnostics', () => (ours(doc.uri).length > 0 ? ours(doc.uri) : undefined));
  const show = (ds: vscode.Diagnostic[]) => ds.map((d) => `${d.range.start.line + 1}: ${code(d)} ${d.message}`).join('; ');
  const used = new Set<vscode.Diagnostic>();
  for (const w of want) {
    const m = got.find((d) => !used.has(d) && d.range.start.line === w.line && w.re.test(`${code(d)} ${d.message}`));
    assert.ok(m, `no diagnostic matching ${w.re} on line ${w.line + 1}; got ${show(got)}`);
    used.add(m);
  }
  const extra = got.filter((d) => !used.has(d));
  assert.deepStrictEqual(show(extra), '', 'unexpected diagnostics');
  const ext004 = got.find((d) => code(d) === 'EXT004');
  assert.ok(ext004 && typeof ext004.code === 'object' && ext004.code.target, 'EXT004 has no documentation link (codeDescription.href)');
});

test('hover on args[N] names the Python parameter', async () => {
  const doc = await openKernel();
  for (let i = 0; i < names.length; i++) {
    const pos = find(doc, `args[${i}]`).translate(0, 5);
    const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos)) ?? [];
    const text = hovers.flatMap((h) => h.contents.map(markdownText)).join('\n');
    assert.match(text, new RegExp(`\\b${names[i]}\\b`), `hover on args[${i}]: ${JSON.stringify(text)}`);
  }
});

test('inlay hints name the parameters after args indices', async () => {
  const doc = await openKernel();
  const range = new vscode.Range(0, 0, doc.lineCount, 0);
  const hints = (await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', doc.uri, range)) ?? [];
  const label = (h: vscode.InlayHint) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''));
  for (let i = 0; i < names.length; i++) {
    const at = find(doc, `args[${i}]`);
    const onLine = hints.filter((h) => h.position.line === at.line).map(label);
    assert.ok(
      onLine.some((l) => l.includes(names[i])),
      `no inlay hint naming ${names[i]} on line ${at.line + 1}; hints there: ${JSON.stringify(onLine)}`,
    );
  }
});

test('Show args[] Table renders the table', async () => {
  await openKernel();
  const md = await vscode.commands.executeCommand<string>('externLsp.showAbiTable');
  assert.ok(typeof md === 'string', 'command returned no table');
  for (const n of names) {
    assert.ok(md.includes(n), `args table lacks ${n}:\n${md}`);
  }
  const shown = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'extern-lsp' && d.getText() === md);
  assert.ok(shown, 'the table is not open as a document');
});

test('the code lens above the entry sums up the extern and opens its args[] table', async () => {
  const doc = await openKernel();
  const lenses = await waitFor('a code lens', async () => {
    const ls = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? [];
    return ls.length > 0 ? ls : undefined;
  });
  assert.strictEqual(lenses.length, 1, `lenses: ${lenses.map((l) => l.command?.title).join('; ')}`);
  const cmd = lenses[0].command;
  assert.ok(cmd, 'the lens has no command');
  assert.strictEqual(cmd.title, 'scale_add · args: 3 tensors, 2 scalars · mixed · needs sync_start');
  assert.strictEqual(lenses[0].range.start.line, find(doc, 'extern "C"').line);
  const md = await vscode.commands.executeCommand<string>(cmd.command, ...(cmd.arguments ?? []));
  assert.ok(typeof md === 'string' && md.includes('`elem_count`'), `the lens command showed ${JSON.stringify(md)}`);
});

test('Switch Per-Core View dims what the chosen core does not run', async () => {
  const doc = await openKernel();
  const vec = find(doc, 'scale_add_vec(').line;
  const cube = find(doc, 'PIPE_MTE1').line;
  const views: [string, number[]][] = [
    ['cube', [vec, vec + 1]],
    ['vector', [cube]],
    ['off', []],
  ];
  try {
    for (const [view, want] of views) {
      await vscode.commands.executeCommand('externLsp.switchCoreView', view);
      await waitFor(`the ${view} view to dim lines ${want.map((l) => l + 1).join(', ')}`, () =>
        JSON.stringify(api.dimmedLines(doc.uri)) === JSON.stringify(want) ? true : undefined,
      );
    }
  } finally {
    await vscode.workspace.getConfiguration('externLsp').update('coreView', undefined, vscode.ConfigurationTarget.Global);
  }
});

test('Show Rule Documentation shows the rule page', async () => {
  const page = await vscode.commands.executeCommand<string>('externLsp.showRuleDocumentation', 'EXT004');
  assert.ok(typeof page === 'string', 'command returned no page');
  assert.match(page, /EXT004|syncall-aiv-only/i);
  assert.ok(
    vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'extern-lsp' && d.getText() === page),
    'the page is not open as a document',
  );
});

test('a quick fix rewrites SyncAll() to SyncAll<false>()', async () => {
  const doc = await openKernel();
  const d = await waitFor('EXT004', () => ours(doc.uri).find((x) => code(x) === 'EXT004'));
  const actions =
    (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, d.range, 'quickfix')) ?? [];
  const fix = actions.find((a) => a.isPreferred) ?? actions.find((a) => a.title.includes('SyncAll<false>'));
  assert.ok(fix && fix.edit, `no quick fix with an edit; got ${actions.map((a) => a.title).join(', ')}`);
  assert.ok(await vscode.workspace.applyEdit(fix.edit));
  assert.match(doc.lineAt(d.range.start.line).text, /AscendC::SyncAll<false>\(\);/);
  await waitFor('EXT004 to go after the fix', () => (hasCode(doc.uri, 'EXT004') ? undefined : true));
  await revert(doc);
});

test('Fix All (extern-lsp) applies source.fixAll.extern-lsp', async () => {
  const doc = await openKernel();
  const line = (await waitFor('EXT004', () => ours(doc.uri).find((x) => code(x) === 'EXT004'))).range.start.line;
  const edits = await vscode.commands.executeCommand<number>('externLsp.fixAll');
  assert.ok(typeof edits === 'number' && edits > 0, `fixAll made ${edits} edits`);
  assert.match(doc.lineAt(line).text, /AscendC::SyncAll<false>\(\);/);
  await revert(doc);
});

test('externLsp.ignore disables a rule live', async () => {
  const doc = await openKernel();
  await waitFor('EXT004', () => (hasCode(doc.uri, 'EXT004') ? true : undefined));
  const cfg = vscode.workspace.getConfiguration('externLsp');
  await cfg.update('ignore', ['EXT004'], vscode.ConfigurationTarget.Global);
  try {
    await waitFor('EXT004 to go with ignore = [EXT004]', () => (hasCode(doc.uri, 'EXT004') ? undefined : true));
  } finally {
    await cfg.update('ignore', undefined, vscode.ConfigurationTarget.Global);
  }
  await waitFor('EXT004 to come back', () => (hasCode(doc.uri, 'EXT004') ? true : undefined));
});

test('externLsp.severity overrides a rule live', async () => {
  const doc = await openKernel();
  const cfg = vscode.workspace.getConfiguration('externLsp');
  await cfg.update('severity', { EXT004: 'hint' }, vscode.ConfigurationTarget.Global);
  try {
    await waitFor('EXT004 as a hint', () =>
      ours(doc.uri).some((d) => code(d) === 'EXT004' && d.severity === vscode.DiagnosticSeverity.Hint) ? true : undefined,
    );
  } finally {
    await cfg.update('severity', undefined, vscode.ConfigurationTarget.Global);
  }
});

test('Restart Server brings the server back', async () => {
  const doc = await openKernel();
  await vscode.commands.executeCommand('externLsp.restartServer');
  const inspect = JSON.stringify(vscode.workspace.getConfiguration('externLsp').inspect('path'));
  assert.strictEqual(api.state, 'ready', `after restart: ${api.state} ${api.reason}; externLsp.path ${inspect}`);
  await waitFor('EXT004 after restart', () => (hasCode(doc.uri, 'EXT004') ? true : undefined));
});

export async function run(): Promise<void> {
  await runSuite('vscode integration', tests);
}
