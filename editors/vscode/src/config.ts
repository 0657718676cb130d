// Pure helpers (no `vscode` import) so unit tests can run them under plain node.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The settings object the server pulls with workspace/configuration (section "externLsp"). */
export interface ServerConfig {
  select: string[];
  ignore: string[];
  severity: Record<string, Severity>;
  checkPython: boolean;
  coreView: CoreView;
  /** Longest wait (ms) between an edit and its diagnostics; absent: the server's default. */
  debounce?: number;
  /** Most findings of one rule listed per file (0: all); absent: the project's max-findings-per-rule. */
  maxFindingsPerRule?: number;
  /** The severity house-rule infos are shown at: 'hint' (default) or 'info'. */
  houseRules: 'hint' | 'info';
}

/** The per-core views: which core's inactive lines are dimmed. */
export const coreViews = ['off', 'cube', 'vector'] as const;
export type CoreView = (typeof coreViews)[number];

export type Severity = 'error' | 'warning' | 'info' | 'hint' | 'off';
const severities: ReadonlySet<string> = new Set(['error', 'warning', 'info', 'hint', 'off']);

/** The subset of vscode.WorkspaceConfiguration that toServerConfig reads. */
export interface SettingsReader {
  get<T>(key: string): T | undefined;
}

/** Settings that only the client reads: changing them must not reach the server. */
export const clientOnlyKeys = ['path', 'trace.server'] as const;

function ruleList(v: unknown): string[] {
  if (!Array.isArray(v)) {
    return [];
  }
  const out: string[] = [];
  for (const item of v) {
    if (typeof item !== 'string') {
      continue;
    }
    const s = normalizeRule(item);
    if (s !== '' && !out.includes(s)) {
      out.push(s);
    }
  }
  return out;
}

/** Codes are upper case (EXT004); names are lower-kebab (syncall-aiv-only). Users type either. */
export function normalizeRule(s: string): string {
  const t = s.trim();
  return /^ext\d*$/i.test(t) ? t.toUpperCase() : t.toLowerCase();
}

/**
 * Maps the user's externLsp.* settings onto what the server expects, dropping
 * client-only keys, malformed entries and unknown severities so that a typo in
 * settings.json cannot make the server reject the whole configuration.
 */
export function toServerConfig(settings: SettingsReader): ServerConfig {
  const severity: Record<string, Severity> = {};
  const raw = settings.get<unknown>('severity');
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      const key = normalizeRule(k);
      const val = typeof v === 'string' ? v.trim().toLowerCase() : '';
      if (key !== '' && severities.has(val)) {
        severity[key] = val as Severity;
      }
    }
  }
  const checkPython = settings.get<unknown>('checkPython');
  const view = settings.get<unknown>('coreView');
  const out: ServerConfig = {
    select: ruleList(settings.get('select')),
    ignore: ruleList(settings.get('ignore')),
    severity,
    checkPython: typeof checkPython === 'boolean' ? checkPython : true,
    coreView: (coreViews as readonly unknown[]).includes(view) ? (view as CoreView) : 'off',
    houseRules: settings.get<unknown>('houseRules') === 'info' ? 'info' : 'hint',
  };
  const debounce = settings.get<unknown>('debounce');
  if (typeof debounce === 'number' && Number.isFinite(debounce) && debounce >= 0) {
    out.debounce = Math.round(debounce);
  }
  const maxFindings = settings.get<unknown>('maxFindingsPerRule');
  if (typeof maxFindings === 'number' && Number.isInteger(maxFindings) && maxFindings >= 0) {
    out.maxFindingsPerRule = maxFindings;
  }
  return out;
}

/** What a configuration change means for the running client. */
export type ChangeAction = 'restart' | 'notify' | 'none';

/**
 * Decides how to apply a settings change live: a new server path needs a new
 * process; rule settings are re-pulled by the server after a
 * workspace/didChangeConfiguration; trace is applied by the language client itself.
 */
export function changeAction(affects: (key: string) => boolean): ChangeAction {
  if (affects('externLsp.path')) {
    return 'restart';
  }
  for (const k of ['select', 'ignore', 'severity', 'checkPython', 'coreView', 'debounce', 'maxFindingsPerRule', 'houseRules']) {
    if (affects(`externLsp.${k}`)) {
      return 'notify';
    }
  }
  return 'none';
}

/** Folder name of the bundled binary for a Node platform/arch pair (as vsce's --target names them). */
export function platformDir(platform: string, arch: string): string {
  return `${platform}-${arch}`;
}

export function binaryName(platform: string): string {
  return platform === 'win32' ? 'extern-lsp.exe' : 'extern-lsp';
}

export interface ResolveInput {
  /** externLsp.path as the user wrote it ('' when unset). */
  setting: string;
  extensionPath: string;
  workspaceFolder?: string;
  platform: string;
  arch: string;
  home?: string;
  /** PATH to search when there is no bundled binary (defaults to process.env.PATH). */
  envPath?: string;
  /** Injected for tests; defaults to an executable-file check. */
  isExecutable?: (p: string) => boolean;
}

export interface Resolved {
  path: string;
  source: 'setting' | 'bundled' | 'path';
}

export class ResolveError extends Error {}

function defaultIsExecutable(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) {
      return false;
    }
    if (process.platform !== 'win32') {
      fs.accessSync(p, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/** Expands ~ and ${workspaceFolder}; a relative path is taken from the workspace folder. */
export function expandPath(p: string, workspaceFolder: string | undefined, home: string): string {
  let s = p.trim();
  if (s === '~' || s.startsWith('~/')) {
    s = path.join(home, s.slice(1));
  }
  if (workspaceFolder !== undefined) {
    s = s.split('${workspaceFolder}').join(workspaceFolder);
  }
  if (!path.isAbsolute(s) && workspaceFolder !== undefined && s.includes(path.sep)) {
    s = path.join(workspaceFolder, s);
  }
  return s;
}

/**
 * Picks the server binary: externLsp.path when set (it must exist; a bare name
 * such as "extern-lsp" is left for PATH lookup), else the one bundled under
 * bin/<platform>-<arch>/ (a platform .vsix carries it), else an extern-lsp on
 * PATH (a universal .vsix, or one for another platform, next to a `pip
 * install`ed server). Errors name what was looked for, since the message ends
 * up in the status bar tooltip.
 */
export function resolveServerPath(inp: ResolveInput): Resolved {
  const isExec = inp.isExecutable ?? defaultIsExecutable;
  const home = inp.home ?? os.homedir();
  if (inp.setting.trim() !== '') {
    const p = expandPath(inp.setting, inp.workspaceFolder, home);
    const bare = !p.includes('/') && !p.includes('\\');
    if (bare || isExec(p)) {
      return { path: p, source: 'setting' };
    }
    throw new ResolveError(`externLsp.path: ${p} is not an executable file`);
  }
  const dir = platformDir(inp.platform, inp.arch);
  const p = path.join(inp.extensionPath, 'bin', dir, binaryName(inp.platform));
  if (isExec(p)) {
    return { path: p, source: 'bundled' };
  }
  const name = binaryName(inp.platform);
  const envPath = inp.envPath ?? process.env.PATH ?? '';
  const sep = inp.platform === 'win32' ? ';' : ':';
  for (const d of envPath.split(sep)) {
    if (d !== '' && isExec(path.join(d, name))) {
      return { path: path.join(d, name), source: 'path' };
    }
  }
  throw new ResolveError(
    `no bundled extern-lsp for ${dir} (looked for ${p}) and none on PATH; install the .vsix for this platform, \`pip install extern-lsp\`, or set externLsp.path`,
  );
}
