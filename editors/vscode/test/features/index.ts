// The docs/screenshot.png test: in the real workbench (code-server, headless
// Chromium), on testdata/editors/ws, it waits until the kernel shows each
// feature the screenshot is for (diagnostics, the code lens above the entry,
// inlay hints naming the args slots, the cube per-core view dimming the
// vector lines, the hover on args[3]), failing if one never appears, then asks
// run-vscode-tests.js to capture the window (SCREENSHOT=file.png).
// Run by TestVSCodeScreenshot (vscode_test.go) and scripts/screenshot.sh.
import * as path from 'path';
import * as vscode from 'vscode';

interface Api {
  ready(): Promise<void>;
  dimmedLines(uri: vscode.Uri): number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 60000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) {
      return v;
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(100);
  }
}

export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const doc = await vscode.workspace.openTextDocument(path.join(folder, 'kernels', 'scale_add.cpp'));
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  await vscode.commands.executeCommand('workbench.action.closePanel');
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  const api = await vscode.extensions.getExtension<Api>('extern-lsp.extern-lsp')!.activate();
  await api.ready();
  await waitFor('diagnostics', () => (vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === 'extern-lsp') ? true : undefined));
  const lenses = await waitFor('the code lens', async () => {
    const ls = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? [];
    return ls.some((l) => l.command?.title.includes('args:')) ? ls : undefined;
  });
  console.log(`features: code lens "${lenses[0].command?.title}"`);
  const hints = await waitFor('inlay hints', async () => {
    const range = new vscode.Range(0, 0, doc.lineCount, 0);
    const hs = (await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', doc.uri, range)) ?? [];
    return hs.length >= 5 ? hs : undefined;
  });
  console.log(`features: ${hints.length} inlay hints`);
  await vscode.commands.executeCommand('externLsp.switchCoreView', 'cube');
  const dimmed = await waitFor('the cube view to dim the vector lines', () => {
    const ls = api.dimmedLines(doc.uri);
    return ls.length > 0 ? ls : undefined;
  });
  console.log(`features: cube view dims lines ${dimmed.map((l) => l + 1).join(', ')}`);
  const pos = doc.positionAt(doc.getText().indexOf('args[3]') + 5);
  const hovers = await waitFor('the hover on args[3]', async () => {
    const hs = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos)) ?? [];
    return hs.length > 0 ? hs : undefined;
  });
  console.log(`features: ${hovers.length} hover(s) on args[3]`);
  editor.selection = new vscode.Selection(pos, pos);
  editor.revealRange(new vscode.Range(0, 0, doc.lineCount, 0), vscode.TextEditorRevealType.AtTop);
  await sleep(1500);
  await vscode.commands.executeCommand('editor.action.showHover');
  await sleep(2500);
  console.log('extern-lsp:screenshot');
  await sleep(4000);
  await vscode.workspace.getConfiguration('externLsp').update('coreView', undefined, vscode.ConfigurationTarget.Global);
}
