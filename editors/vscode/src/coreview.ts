import * as vscode from 'vscode';

/** What externLsp/inactiveRegions answers. */
interface InactiveRegions {
  core: string;
  regions: { start: { line: number; character: number }; end: { line: number; character: number } }[];
}

/** Sends a request to the running server, or resolves undefined when there is none. */
export type Requester = <R>(method: string, params: unknown) => Promise<R | undefined>;

/**
 * The per-core view: dims the lines the chosen core does not compile or run,
 * as clangd's inactive regions do, from the server's externLsp/inactiveRegions.
 * Decorations rather than semantic tokens: VS Code uses one semantic token
 * provider per document, and ours would replace the C++ extension's.
 */
export class CoreViewDecorations implements vscode.Disposable {
  private readonly type = vscode.window.createTextEditorDecorationType({ opacity: '0.4', isWholeLine: true });
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly applied = new Map<string, number[]>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly request: Requester) {
    this.subs.push(
      vscode.window.onDidChangeVisibleTextEditors(() => this.refreshAll()),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document.uri, 300)),
    );
  }

  /** The 0-based lines dimmed in a document, for the tests and the status. */
  dimmedLines(uri: vscode.Uri): number[] {
    return this.applied.get(uri.toString()) ?? [];
  }

  refreshAll(): void {
    for (const e of vscode.window.visibleTextEditors) {
      this.schedule(e.document.uri, 0);
    }
  }

  private schedule(uri: vscode.Uri, ms: number): void {
    if (uri.scheme !== 'file') {
      return;
    }
    const key = uri.toString();
    const t = this.timers.get(key);
    if (t !== undefined) {
      clearTimeout(t);
    }
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.refresh(uri);
      }, ms),
    );
  }

  private async refresh(uri: vscode.Uri): Promise<void> {
    let res: InactiveRegions | undefined;
    try {
      res = await this.request<InactiveRegions>('externLsp/inactiveRegions', { textDocument: { uri: uri.toString() } });
    } catch {
      res = undefined;
    }
    const ranges = (res?.regions ?? []).map((r) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character));
    const lines: number[] = [];
    for (const r of ranges) {
      for (let l = r.start.line; l <= r.end.line; l++) {
        lines.push(l);
      }
    }
    this.applied.set(uri.toString(), lines);
    for (const e of vscode.window.visibleTextEditors) {
      if (e.document.uri.toString() === uri.toString()) {
        e.setDecorations(this.type, ranges);
      }
    }
  }

  dispose(): void {
    for (const t of this.timers.values()) {
      clearTimeout(t);
    }
    this.subs.forEach((s) => s.dispose());
    this.type.dispose();
  }
}
