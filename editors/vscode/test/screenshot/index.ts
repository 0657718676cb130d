// Not a test: poses the workbench for the README screenshot (squiggled bare
// SyncAll() and the hover on args[3]), then asks run-vscode-tests.js to
// capture it. Run: scripts/screenshot.sh (needs editors/ci/install.sh's code-server).
import * as path from 'path';
import * as vscode from 'vscode';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const doc = await vscode.workspace.openTextDocument(path.join(folder, 'kernels', 'scale_add.cpp'));
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  await vscode.commands.executeCommand('workbench.action.closePanel');
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  for (let i = 0; i < 600 && !vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === 'extern-lsp'); i++) {
    await sleep(50);
  }
  const off = doc.getText().indexOf('args[3]');
  const pos = doc.positionAt(off + 5);
  editor.selection = new vscode.Selection(pos, pos);
  editor.revealRange(new vscode.Range(0, 0, doc.lineCount, 0), vscode.TextEditorRevealType.AtTop);
  await sleep(1500);
  await vscode.commands.executeCommand('editor.action.showHover');
  await sleep(2500);
  console.log('extern-lsp:screenshot');
  await sleep(4000);
}
