import * as vscode from 'vscode';

export const viewScheme = 'extern-lsp';

/**
 * Read-only virtual documents for the args[] tables and rule pages. They are
 * markdown, so the built-in preview renders the tables; the text stays
 * readable in a plain editor too.
 */
export class MarkdownViews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** Stores the markdown under a stable uri (re-running a command refreshes the same tab) and shows it. */
  async show(name: string, markdown: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({ scheme: viewScheme, path: `/${name}.md` });
    this.contents.set(uri.toString(), markdown);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
    return uri;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Wraps CLI text output so markdown keeps its column alignment. */
export function fenced(text: string): string {
  return '```text\n' + text.replace(/\s+$/, '') + '\n```\n';
}
