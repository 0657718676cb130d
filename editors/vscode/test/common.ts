// Helpers the suites that run inside code-server's extension host share.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

// Generous: CI machines are small and may be busy; a healthy run waits far less.
export const timeoutMs = 45000;

export interface Api {
  readonly state: string;
  readonly reason: string;
  readonly serverPath: string | undefined;
  ready(): Promise<void>;
}

export function folder(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'no workspace folder');
  return f.uri.fsPath;
}

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = timeoutMs): Promise<T> {
  const end = Date.now() + ms;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last !== undefined) {
      return last;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'extern-lsp');
}

export function code(d: vscode.Diagnostic): string {
  const c = d.code;
  return typeof c === 'object' && c !== null ? String(c.value) : String(c ?? '');
}

export function markdownText(c: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof c === 'string') {
    return c;
  }
  return 'value' in c ? c.value : '';
}

export type Test = [string, () => Promise<void>];

/**
 * Runs the tests in order, logs `ok`/`FAIL` lines and the closing count, and
 * writes <workspace>/.vscode-test-results.json for the Go test to report;
 * throws when one failed, so the run's exit code says so too.
 */
export async function runSuite(label: string, tests: Test[]): Promise<void> {
  const results: { name: string; ok: boolean; error?: string; ms: number }[] = [];
  for (const [name, fn] of tests) {
    const t0 = Date.now();
    try {
      await fn();
      results.push({ name, ok: true, ms: Date.now() - t0 });
      console.log(`ok   ${name}`);
    } catch (e) {
      const error = e instanceof Error ? e.stack ?? e.message : String(e);
      results.push({ name, ok: false, error, ms: Date.now() - t0 });
      console.log(`FAIL ${name}: ${error}`);
    }
  }
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${label}: ${results.length - failed} passed, ${failed} failed`);
  fs.writeFileSync(path.join(folder(), '.vscode-test-results.json'), JSON.stringify({ vscode: vscode.version, results }, null, 1));
  if (failed > 0) {
    throw new Error(`${failed} ${label} test(s) failed`);
  }
}
