// Helpers around the extern-lsp command line (pure, unit-tested without vscode).
import { execFile } from 'child_process';

export interface RuleInfo {
  code: string;
  name: string;
  summary: string;
}

function str(o: Record<string, unknown>, ...keys: string[]): string {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string' && v !== '') {
      return v;
    }
  }
  return '';
}

/**
 * Reads `extern-lsp rules --format json`: a list of rules, bare or under a
 * "rules" key, each with a code and usually a name and a one-line summary.
 */
export function parseRules(text: string): RuleInfo[] {
  const data: unknown = JSON.parse(text);
  let list: unknown = data;
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    list = (data as Record<string, unknown>)['rules'];
  }
  if (!Array.isArray(list)) {
    throw new Error('extern-lsp rules: expected a JSON list of rules');
  }
  const out: RuleInfo[] = [];
  for (const r of list) {
    if (r === null || typeof r !== 'object') {
      continue;
    }
    const o = r as Record<string, unknown>;
    const code = str(o, 'code', 'Code', 'id');
    if (code === '') {
      continue;
    }
    out.push({ code, name: str(o, 'name', 'Name'), summary: str(o, 'summary', 'doc', 'Doc', 'description', 'short') });
  }
  return out;
}

/** The diagnostic code as a string, whichever shape the client converted it to. */
export function diagnosticCode(code: unknown): string {
  if (typeof code === 'string' || typeof code === 'number') {
    return String(code);
  }
  if (code !== null && typeof code === 'object' && 'value' in code) {
    return String((code as { value: unknown }).value);
  }
  return '';
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

/**
 * Runs the server binary as a CLI; rejects with its stderr (or the exit
 * reason) on failure. okExit lists the exit codes that still carry a
 * result on stdout (`abi` exits 1 when the C++ disagrees with the stub).
 */
export function run(binary: string, args: string[], cwd?: string, timeoutMs = 20000, okExit: number[] = [0]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { cwd, timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : undefined;
      if (code === undefined || !okExit.includes(code)) {
        const detail = stderr.trim() !== '' ? stderr.trim() : err?.message ?? 'failed';
        reject(new Error(`${binary} ${args.join(' ')}: ${detail}`));
        return;
      }
      resolve({ stdout, stderr });
    });
  });
}
