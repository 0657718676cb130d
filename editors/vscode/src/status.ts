import * as vscode from 'vscode';

export type ServerState = 'stopped' | 'starting' | 'ready' | 'error';

/** Status bar item: server state at a glance, the reason of an error on hover, output on click. */
export class ServerStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private current: ServerState = 'stopped';
  private currentReason = '';

  constructor() {
    this.item = vscode.window.createStatusBarItem('externLsp.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'extern-lsp';
    this.item.command = 'externLsp.showOutput';
    this.set('stopped');
    this.item.show();
  }

  get state(): ServerState {
    return this.current;
  }

  get reason(): string {
    return this.currentReason;
  }

  set(state: ServerState, reason = ''): void {
    this.current = state;
    this.currentReason = reason;
    this.item.backgroundColor = undefined;
    switch (state) {
      case 'starting':
        this.item.text = '$(sync~spin) extern-lsp';
        this.item.tooltip = 'extern-lsp: starting';
        break;
      case 'ready':
        this.item.text = '$(check) extern-lsp';
        this.item.tooltip = reason === '' ? 'extern-lsp: ready' : `extern-lsp: ready (${reason})`;
        break;
      case 'error':
        this.item.text = '$(error) extern-lsp';
        this.item.tooltip = new vscode.MarkdownString().appendText(`extern-lsp: error\n\n${reason}\n\n`).appendMarkdown('Click to show the output.');
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      case 'stopped':
        this.item.text = '$(circle-slash) extern-lsp';
        this.item.tooltip = 'extern-lsp: stopped';
        break;
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}
