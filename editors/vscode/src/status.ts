import * as vscode from 'vscode';

export type ServerState = 'stopped' | 'starting' | 'ready' | 'warning' | 'error';

/** One thing the server cannot see (externLsp/status): what is off and why, and how to turn it on. */
export interface Gap {
  kind: string;
  message: string;
  fix: string;
  paths: string[];
  /** For a folder opened below its stubs: the folder to open. */
  root?: string;
}

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
    this.item.command = 'externLsp.showOutput';
    switch (state) {
      case 'starting':
        this.item.text = '$(sync~spin) extern-lsp';
        this.item.tooltip = 'extern-lsp: starting';
        break;
      case 'ready':
        this.item.text = '$(check) extern-lsp';
        this.item.tooltip = reason === '' ? 'extern-lsp: ready' : `extern-lsp: ready (${reason})`;
        break;
      case 'warning':
        // Running, but something is off (externLsp/status): say what and how to fix it.
        this.item.text = '$(warning) extern-lsp';
        this.item.tooltip = new vscode.MarkdownString().appendText(`extern-lsp: ${reason}\n\n`).appendMarkdown('Click to fix it.');
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        this.item.command = 'externLsp.fixSetup';
        return;
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
