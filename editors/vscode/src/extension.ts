import * as path from 'path';
import * as vscode from 'vscode';
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { diagnosticCode, parseRules, run } from './cli';
import { changeAction, CoreView, coreViews, resolveServerPath, Resolved, toServerConfig } from './config';
import { CoreViewDecorations } from './coreview';
import { Gap, ServerStatus } from './status';
import { fenced, MarkdownViews, viewScheme } from './views';

export const section = 'externLsp';
export const fixAllKind = 'source.fixAll.extern-lsp';
export const diagnosticSource = 'extern-lsp';

/** Every command the extension registers; a unit test checks package.json against this list. */
export const commandIds = [
  'externLsp.restartServer',
  'externLsp.showOutput',
  'externLsp.fixAll',
  'externLsp.showRuleDocumentation',
  'externLsp.showAbiTable',
  'externLsp.switchCoreView',
  'externLsp.fixSetup',
  'externLsp.writeClangdConfig',
] as const;

/** C/C++ (with .cce and .asc kernels, which VS Code does not map to cpp on its own) and Python stubs. */
export const documentSelector = [
  { scheme: 'file', language: 'cpp' },
  { scheme: 'file', language: 'c' },
  { scheme: 'file', language: 'python' },
  { scheme: 'file', pattern: '**/*.cce' },
  { scheme: 'file', pattern: '**/*.asc' },
];

/** What activate() returns: enough for the integration tests to wait on the server. */
export interface ExternLspApi {
  readonly state: string;
  readonly reason: string;
  readonly serverPath: string | undefined;
  ready(): Promise<void>;
  /** The 0-based lines the per-core view dims in a document. */
  dimmedLines(uri: vscode.Uri): number[];
  /** What the server last said it cannot see (externLsp/status). */
  readonly gaps: readonly Gap[];
}

class Controller implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private resolved: Resolved | undefined;
  private starting: Promise<void> = Promise.resolve();
  private lastStderr = '';
  /** The server's last externLsp/status gaps. */
  gaps: Gap[] = [];
  private readyReason = '';
  readonly output: vscode.OutputChannel;
  readonly trace: vscode.OutputChannel;
  readonly status = new ServerStatus();
  readonly views = new MarkdownViews();
  readonly coreView = new CoreViewDecorations(async <R>(method: string, params: unknown) =>
    this.client?.isRunning() ? await this.client.sendRequest<R>(method, params) : undefined,
  );

  constructor(private readonly ctx: vscode.ExtensionContext) {
    const raw = vscode.window.createOutputChannel('extern-lsp');
    this.output = this.teeStderr(raw);
    this.trace = vscode.window.createOutputChannel('extern-lsp trace');
    ctx.subscriptions.push(raw, this.trace, this.status, this.views, this.coreView);
  }

  /** Keeps the last line the server (or the client on its behalf) wrote, for the status bar tooltip. */
  private teeStderr(ch: vscode.OutputChannel): vscode.OutputChannel {
    const remember = (s: string) => {
      const lines = s.split('\n').map((l) => l.trim()).filter((l) => l !== '');
      if (lines.length > 0) {
        this.lastStderr = lines[lines.length - 1];
      }
    };
    return {
      name: ch.name,
      append: (s: string) => {
        remember(s);
        ch.append(s);
      },
      appendLine: (s: string) => {
        remember(s);
        ch.appendLine(s);
      },
      replace: (s: string) => ch.replace(s),
      clear: () => ch.clear(),
      show: (preserveFocus?: boolean) => ch.show(preserveFocus),
      hide: () => ch.hide(),
      dispose: () => ch.dispose(),
    } as vscode.OutputChannel;
  }

  get serverPath(): string | undefined {
    return this.resolved?.path;
  }

  private workspaceFolder(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  /** Resolves the binary now, so a changed externLsp.path takes effect on restart. */
  resolveBinary(): Resolved {
    this.resolved = resolveServerPath({
      setting: vscode.workspace.getConfiguration(section).get<string>('path') ?? '',
      extensionPath: this.ctx.extensionPath,
      workspaceFolder: this.workspaceFolder(),
      platform: process.platform,
      arch: process.arch,
    });
    return this.resolved;
  }

  start(): Promise<void> {
    this.starting = this.doStart();
    return this.starting;
  }

  ready(): Promise<void> {
    return this.starting;
  }

  private async doStart(): Promise<void> {
    this.status.set('starting');
    let bin: Resolved;
    try {
      bin = this.resolveBinary();
    } catch (e) {
      this.fail(e);
      return;
    }
    this.output.appendLine(`[extern-lsp] starting ${bin.path} (${bin.source})`);
    const serverOptions: ServerOptions = {
      command: bin.path,
      args: [],
      transport: TransportKind.stdio,
      options: { cwd: this.workspaceFolder() },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector,
      outputChannel: this.output,
      traceOutputChannel: this.trace,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      diagnosticCollectionName: diagnosticSource,
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue }),
        closed: () => {
          // The default handler restarts a crashing server a few times; here
          // a crash is shown in the status bar and the user restarts it.
          this.status.set('error', `server exited: ${this.lastStderr || 'no message (see output)'}`);
          return { action: CloseAction.DoNotRestart };
        },
      },
      middleware: {
        // The per-core view is drawn with decorations (see coreview.ts); the
        // server's comment tokens are for clients without them.
        provideDocumentSemanticTokens: () => null,
        workspace: {
          // The server pulls section "externLsp"; answer with the mapped
          // settings (no client-only keys such as path or trace).
          configuration: async (params, token, next) => {
            const fallback = await next(params, token);
            return params.items.map((item, i) => {
              if (item.section === undefined || (item.section !== section && !item.section.startsWith(section + '.'))) {
                return Array.isArray(fallback) ? fallback[i] : null;
              }
              const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
              const cfg = toServerConfig(vscode.workspace.getConfiguration(section, scope));
              if (item.section === section) {
                return cfg;
              }
              return (cfg as unknown as Record<string, unknown>)[item.section.slice(section.length + 1)] ?? null;
            });
          },
        },
      },
    };
    const client = new LanguageClient(section, 'extern-lsp', serverOptions, clientOptions);
    this.client = client;
    // The status item shows the server's gaps itself: the server then sends
    // no warning message for them.
    client.registerFeature({
      fillClientCapabilities: (caps) => {
        caps.experimental = { ...(caps.experimental ?? {}), externLspStatus: true };
      },
      initialize: () => undefined,
      getState: () => ({ kind: 'static' }),
      clear: () => undefined,
    });
    client.onNotification('externLsp/status', (st: { gaps?: Gap[] }) => this.onStatus(st.gaps ?? []));
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        this.readyReason = bin.source === 'bundled' ? '' : bin.path;
        this.showReady();
        this.coreView.refreshAll();
      } else if (e.newState === State.Starting) {
        this.status.set('starting');
      } else if (e.newState === State.Stopped && this.status.state !== 'error') {
        this.status.set('stopped');
      }
    });
    try {
      await client.start();
    } catch (e) {
      this.fail(e);
    }
  }

  /** externLsp/status: a gap turns the status item to a warning with the reason; none, back to ready. */
  onStatus(gaps: Gap[]): void {
    this.gaps = gaps;
    for (const g of gaps) {
      this.output.appendLine(`[extern-lsp] ${g.message}; ${g.fix}`);
    }
    if (this.status.state === 'ready' || this.status.state === 'warning') {
      this.showReady();
    }
  }

  private showReady(): void {
    if (this.gaps.length > 0) {
      this.status.set('warning', this.gaps.map((g) => `${g.message}; ${g.fix}`).join('\n\n'));
    } else {
      this.status.set('ready', this.readyReason);
    }
  }

  /**
   * Writes the project's .clangd for the per-core view's core (the server's
   * extern-lsp.writeClangdConfig): clangd then sees the qualifiers and the
   * core macro, and its inactive regions follow the view when it is switched.
   */
  async writeClangdConfig(): Promise<string | undefined> {
    if (!this.client?.isRunning()) {
      throw new Error('the server is not running');
    }
    const res = await this.client.sendRequest<{ path: string; core: string }>('workspace/executeCommand', {
      command: 'extern-lsp.writeClangdConfig',
      arguments: [],
    });
    void vscode.window.showInformationMessage(`extern-lsp: wrote ${res.path} for the ${res.core} core (switching the per-core view switches it)`);
    return res.path;
  }

  /** The status item's command when something is off: explains the first gap and offers its fix. */
  async fixSetup(): Promise<string | undefined> {
    const g = this.gaps[0];
    if (g === undefined) {
      void vscode.window.showInformationMessage('extern-lsp: the server sees the whole workspace');
      return undefined;
    }
    const open = g.root !== undefined ? `Open ${path.basename(g.root)}` : undefined;
    const choice = await vscode.window.showWarningMessage(`extern-lsp: ${g.message}`, { detail: g.fix, modal: false }, ...(open ? [open] : []), 'Show Output');
    if (open !== undefined && choice === open && g.root !== undefined) {
      await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(g.root), { forceNewWindow: false });
    } else if (choice === 'Show Output') {
      this.output.show(true);
    }
    return choice;
  }

  private fail(e: unknown): void {
    const msg = e instanceof Error ? e.message : String(e);
    this.output.appendLine(`[extern-lsp] ${msg}`);
    this.status.set('error', msg);
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c !== undefined) {
      try {
        await c.stop(5000);
      } catch {
        // Already dead; stopping again is harmless.
      }
    }
    this.status.set('stopped');
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Applies an externLsp.* change without a reload. */
  async onConfigChange(e: vscode.ConfigurationChangeEvent): Promise<void> {
    switch (changeAction((k) => e.affectsConfiguration(k))) {
      case 'restart':
        await this.restart();
        break;
      case 'notify':
        if (this.client?.isRunning()) {
          await this.client.sendNotification(DidChangeConfigurationNotification.type, {
            settings: { [section]: toServerConfig(vscode.workspace.getConfiguration(section)) },
          });
        }
        if (e.affectsConfiguration(`${section}.coreView`)) {
          this.coreView.refreshAll();
        }
        break;
      case 'none':
        break;
    }
  }

  /** Applies the server's source.fixAll.extern-lsp action to the active document; returns the number of edits made. */
  async fixAll(): Promise<number> {
    const editor = vscode.window.activeTextEditor;
    if (editor === undefined) {
      void vscode.window.showInformationMessage('extern-lsp: no active editor');
      return 0;
    }
    const doc = editor.document;
    const range = new vscode.Range(0, 0, doc.lineCount, 0);
    const actions =
      (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, range, fixAllKind)) ?? [];
    const kind = vscode.CodeActionKind.Source.append('fixAll').append('extern-lsp');
    let edits = 0;
    for (const a of actions) {
      if (a.kind === undefined || !kind.contains(a.kind)) {
        continue;
      }
      if (a.edit !== undefined) {
        edits += a.edit.entries().reduce((n, [, es]) => n + es.length, 0);
        await vscode.workspace.applyEdit(a.edit);
      }
      if (a.command !== undefined) {
        await vscode.commands.executeCommand(a.command.command, ...(a.command.arguments ?? []));
      }
    }
    if (edits === 0) {
      void vscode.window.showInformationMessage('extern-lsp: nothing to fix automatically');
    }
    return edits;
  }

  private binary(): string {
    return this.resolved?.path ?? this.resolveBinary().path;
  }

  /** Shows a rule's page (`extern-lsp explain`); without an argument, the rule under the cursor or a pick list. */
  async showRuleDocumentation(code?: string): Promise<string | undefined> {
    let rule = typeof code === 'string' ? code : undefined;
    const editor = vscode.window.activeTextEditor;
    if (rule === undefined && editor !== undefined) {
      const here = vscode.languages
        .getDiagnostics(editor.document.uri)
        .filter((d) => d.source === diagnosticSource && d.range.contains(editor.selection.active));
      if (here.length === 1) {
        rule = diagnosticCode(here[0].code);
      }
    }
    const bin = this.binary();
    if (rule === undefined) {
      const rules = parseRules((await run(bin, ['rules', '--format', 'json'])).stdout);
      const pick = await vscode.window.showQuickPick(
        rules.map((r) => ({ label: r.code, description: r.name, detail: r.summary || undefined })),
        { placeHolder: 'extern-lsp rule', matchOnDescription: true, matchOnDetail: true },
      );
      if (pick === undefined) {
        return undefined;
      }
      rule = pick.label;
    }
    const page = (await run(bin, ['explain', rule])).stdout;
    await this.views.show(rule, page);
    return page;
  }

  /**
   * Shows the args[] table(s) of the active file: the server's
   * externLsp/abiTable when it answers, else `extern-lsp abi --format text`.
   */
  async showAbiTable(uri?: string): Promise<string | undefined> {
    let doc: vscode.TextDocument | undefined;
    if (uri !== undefined) {
      // From the code lens above an entry: the document it names.
      doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    } else {
      doc = vscode.window.activeTextEditor?.document;
    }
    if (doc === undefined) {
      void vscode.window.showInformationMessage('extern-lsp: open a kernel, header or Python stub first');
      return undefined;
    }
    let markdown: string | undefined;
    if (this.client?.isRunning()) {
      try {
        const res = await this.client.sendRequest<{ markdown?: string } | null>('externLsp/abiTable', {
          textDocument: { uri: doc.uri.toString() },
        });
        if (res && typeof res.markdown === 'string') {
          markdown = res.markdown;
        }
      } catch (e) {
        this.output.appendLine(`[extern-lsp] externLsp/abiTable: ${e instanceof Error ? e.message : String(e)}; using the CLI`);
      }
    }
    if (markdown === undefined) {
      if (doc.isDirty) {
        await doc.save();
      }
      const out = await run(this.binary(), ['abi', '--format', 'text', doc.uri.fsPath], this.workspaceFolder(), 20000, [0, 1]);
      markdown = `# args[] of ${path.basename(doc.uri.fsPath)}\n\n${fenced(out.stdout)}`;
    }
    await this.views.show(`${path.basename(doc.uri.fsPath)} args`, markdown);
    return markdown;
  }

  /** Sets externLsp.coreView (asks when no view is given); returns the view now in effect. */
  async switchCoreView(view?: string): Promise<CoreView | undefined> {
    let next = view;
    if (next === undefined) {
      const cur = toServerConfig(vscode.workspace.getConfiguration(section)).coreView;
      const pick = await vscode.window.showQuickPick(
        coreViews.map((v) => ({
          label: v,
          description: v === cur ? 'current' : undefined,
          detail: v === 'off' ? 'show every line' : `dim the lines the ${v} core does not compile or run`,
        })),
        { placeHolder: 'extern-lsp per-core view' },
      );
      next = pick?.label;
    }
    if (next === undefined) {
      return undefined;
    }
    if (!(coreViews as readonly string[]).includes(next)) {
      throw new Error(`core view is one of ${coreViews.join(', ')}, not ${next}`);
    }
    await vscode.workspace.getConfiguration(section).update('coreView', next, vscode.ConfigurationTarget.Global);
    return next as CoreView;
  }

  dispose(): void {
    void this.stop();
  }
}

let controller: Controller | undefined;

export async function activate(ctx: vscode.ExtensionContext): Promise<ExternLspApi> {
  const c = new Controller(ctx);
  controller = c;
  const reportErrors =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R | undefined> => {
      try {
        return await f(...a);
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        c.output.appendLine(`[extern-lsp] ${msg}`);
        void vscode.window.showErrorMessage(`extern-lsp: ${msg}`);
        return undefined;
      }
    };
  const handlers: Record<(typeof commandIds)[number], (...args: unknown[]) => unknown> = {
    'externLsp.restartServer': reportErrors(() => c.restart()),
    'externLsp.showOutput': () => c.output.show(true),
    'externLsp.fixAll': reportErrors(() => c.fixAll()),
    'externLsp.showRuleDocumentation': reportErrors((code?: unknown) =>
      c.showRuleDocumentation(typeof code === 'string' ? code : undefined),
    ),
    'externLsp.showAbiTable': reportErrors((uri?: unknown) => c.showAbiTable(typeof uri === 'string' ? uri : undefined)),
    'externLsp.switchCoreView': reportErrors((view?: unknown) => c.switchCoreView(typeof view === 'string' ? view : undefined)),
    'externLsp.fixSetup': reportErrors(() => c.fixSetup()),
    'externLsp.writeClangdConfig': reportErrors(() => c.writeClangdConfig()),
  };
  for (const id of commandIds) {
    ctx.subscriptions.push(vscode.commands.registerCommand(id, handlers[id]));
  }
  ctx.subscriptions.push(
    c,
    vscode.workspace.registerTextDocumentContentProvider(viewScheme, c.views),
    vscode.workspace.onDidChangeConfiguration((e) => c.onConfigChange(e)),
  );
  void c.start();
  return {
    get state() {
      return c.status.state;
    },
    get reason() {
      return c.status.reason;
    },
    get serverPath() {
      return c.serverPath;
    },
    ready: () => c.ready(),
    dimmedLines: (uri: vscode.Uri) => c.coreView.dimmedLines(uri),
    get gaps() {
      return c.gaps;
    },
  };
}

export async function deactivate(): Promise<void> {
  await controller?.stop();
  controller = undefined;
}
