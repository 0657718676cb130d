// A stand-in for the `vscode` module so the extension's tsc output loads under
// plain node: the APIs activate() uses are recorded; anything else (what
// vscode-languageclient touches at load time) is an inert stub.
import Module = require('module');

export interface Recorded {
  commands: Map<string, (...args: unknown[]) => unknown>;
  statusItems: { text: string; tooltip: unknown; command?: string }[];
  output: string[];
  settings: Record<string, unknown>;
  contentProviders: string[];
}

export const recorded: Recorded = { commands: new Map(), statusItems: [], output: [], settings: {}, contentProviders: [] };

function inert(): unknown {
  const f = function () {
    return inert();
  };
  return new Proxy(f, {
    get: (target, prop) => {
      if (prop === 'prototype') {
        return Object.prototype;
      }
      if (prop === Symbol.toPrimitive) {
        return () => '';
      }
      if (prop === 'then') {
        return undefined;
      }
      return inert();
    },
    construct: () => inert() as object,
    apply: () => inert(),
  });
}

const disposable = { dispose() {} };

class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return disposable;
  };
  fire(e: T) {
    this.listeners.forEach((l) => l(e));
  }
  dispose() {}
}

class MarkdownString {
  value = '';
  appendText(s: string) {
    this.value += s;
    return this;
  }
  appendMarkdown(s: string) {
    this.value += s;
    return this;
  }
}

const api: Record<string, unknown> = {
  EventEmitter,
  MarkdownString,
  ThemeColor: class {
    constructor(public id: string) {}
  },
  StatusBarAlignment: { Left: 1, Right: 2 },
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  commands: {
    registerCommand(id: string, fn: (...args: unknown[]) => unknown) {
      recorded.commands.set(id, fn);
      return disposable;
    },
    executeCommand: async () => undefined,
  },
  window: {
    createOutputChannel(name: string) {
      return {
        name,
        append: (s: string) => recorded.output.push(s),
        appendLine: (s: string) => recorded.output.push(s + '\n'),
        replace() {},
        clear() {},
        show() {},
        hide() {},
        dispose() {},
      };
    },
    createStatusBarItem() {
      const item = { text: '', tooltip: undefined as unknown, show() {}, hide() {}, dispose() {} };
      recorded.statusItems.push(item);
      return item;
    },
    createTextEditorDecorationType: () => disposable,
    onDidChangeVisibleTextEditors: () => disposable,
    visibleTextEditors: [],
    showInformationMessage: async () => undefined,
    showErrorMessage: async () => undefined,
    activeTextEditor: undefined,
  },
  workspace: {
    workspaceFolders: undefined,
    getConfiguration(section?: string) {
      return {
        get: (key: string) => recorded.settings[section ? `${section}.${key}` : key],
      };
    },
    onDidChangeConfiguration: () => disposable,
    onDidChangeTextDocument: () => disposable,
    registerTextDocumentContentProvider(scheme: string) {
      recorded.contentProviders.push(scheme);
      return disposable;
    },
  },
  languages: { getDiagnostics: () => [] },
  Uri: { parse: (s: string) => ({ toString: () => s }), file: (p: string) => ({ fsPath: p }) },
};

const mock = new Proxy(api, {
  get: (target, prop: string) => (prop in target ? target[prop] : inert()),
});

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const m = Module as unknown as { _load: Loader };
const load = m._load;
m._load = function (request: string, parent: unknown, isMain: boolean) {
  if (request === 'vscode') {
    return mock;
  }
  return load.call(this, request, parent, isMain);
};
