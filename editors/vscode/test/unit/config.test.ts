import * as assert from 'assert';
import * as path from 'path';
import { test } from 'node:test';
import { changeAction, expandPath, resolveServerPath, ResolveError, toServerConfig } from '../../src/config';

function reader(values: Record<string, unknown>) {
  return { get: <T>(key: string) => values[key] as T | undefined };
}

test('toServerConfig passes rule settings through and fills defaults', () => {
  assert.deepStrictEqual(toServerConfig(reader({})), { select: [], ignore: [], severity: {}, checkPython: true, coreView: 'off', houseRules: 'hint' });
  assert.deepStrictEqual(
    toServerConfig(
      reader({
        path: '/opt/extern-lsp',
        'trace.server': 'verbose',
        select: ['EXT0', 'ext1'],
        ignore: ['EXT004', 'Syncall-AIV-Only '],
        severity: { EXT001: 'warning', ext006: 'Off' },
        checkPython: false,
        coreView: 'cube',
      }),
    ),
    {
      select: ['EXT0', 'EXT1'],
      ignore: ['EXT004', 'syncall-aiv-only'],
      severity: { EXT001: 'warning', EXT006: 'off' },
      checkPython: false,
      coreView: 'cube',
      houseRules: 'hint',
    },
  );
  assert.strictEqual(toServerConfig(reader({ houseRules: 'info' })).houseRules, 'info');
  assert.strictEqual(toServerConfig(reader({ houseRules: 'all' })).houseRules, 'hint');
  assert.strictEqual(toServerConfig(reader({ debounce: 120 })).debounce, 120);
  assert.strictEqual(toServerConfig(reader({ debounce: -5 })).debounce, undefined);
  assert.strictEqual(toServerConfig(reader({ debounce: 'soon' })).debounce, undefined);
  assert.strictEqual(toServerConfig(reader({ maxFindingsPerRule: 0 })).maxFindingsPerRule, 0);
  assert.strictEqual(toServerConfig(reader({ maxFindingsPerRule: 200 })).maxFindingsPerRule, 200);
  assert.strictEqual(toServerConfig(reader({ maxFindingsPerRule: -1 })).maxFindingsPerRule, undefined);
  assert.strictEqual(toServerConfig(reader({ maxFindingsPerRule: 2.5 })).maxFindingsPerRule, undefined);
});

test('toServerConfig drops malformed entries instead of sending them', () => {
  const cfg = toServerConfig(
    reader({
      select: 'EXT004',
      ignore: ['EXT004', '', 7, 'EXT004', null],
      severity: { EXT001: 'fatal', EXT002: 3, EXT003: 'hint' },
      checkPython: 'yes',
      coreView: 'both',
    }),
  );
  assert.deepStrictEqual(cfg, { select: [], ignore: ['EXT004'], severity: { EXT003: 'hint' }, checkPython: true, coreView: 'off', houseRules: 'hint' });
  assert.deepStrictEqual(toServerConfig(reader({ severity: ['EXT001'] })).severity, {});
});

test('toServerConfig never forwards client-only keys', () => {
  const cfg = toServerConfig(reader({ path: '/x', 'trace.server': 'messages' })) as unknown as Record<string, unknown>;
  assert.ok(!('path' in cfg) && !('trace' in cfg) && !('trace.server' in cfg));
});

test('changeAction restarts for a new path and notifies for rule settings', () => {
  const only = (k: string) => (key: string) => key === k || k.startsWith(key + '.');
  assert.strictEqual(changeAction(only('externLsp.path')), 'restart');
  for (const k of ['select', 'ignore', 'severity', 'checkPython', 'coreView', 'debounce', 'maxFindingsPerRule', 'houseRules']) {
    assert.strictEqual(changeAction(only(`externLsp.${k}`)), 'notify', k);
  }
  assert.strictEqual(changeAction(only('externLsp.trace.server')), 'none');
  assert.strictEqual(changeAction(only('editor.fontSize')), 'none');
});

test('resolveServerPath prefers externLsp.path and expands it', () => {
  const isExecutable = (p: string) => p === '/home/u/bin/extern-lsp' || p === '/ws/tools/extern-lsp';
  const base = { extensionPath: '/ext', workspaceFolder: '/ws', platform: 'linux', arch: 'x64', home: '/home/u', isExecutable };
  assert.deepStrictEqual(resolveServerPath({ ...base, setting: '~/bin/extern-lsp' }), { path: '/home/u/bin/extern-lsp', source: 'setting' });
  assert.deepStrictEqual(resolveServerPath({ ...base, setting: '${workspaceFolder}/tools/extern-lsp' }), {
    path: '/ws/tools/extern-lsp',
    source: 'setting',
  });
  assert.deepStrictEqual(resolveServerPath({ ...base, setting: 'tools/extern-lsp' }), { path: '/ws/tools/extern-lsp', source: 'setting' });
  // A bare name is left to PATH lookup when the process starts.
  assert.deepStrictEqual(resolveServerPath({ ...base, setting: 'extern-lsp' }), { path: 'extern-lsp', source: 'setting' });
  assert.throws(() => resolveServerPath({ ...base, setting: '/nope/extern-lsp' }), (e: Error) => e instanceof ResolveError && /\/nope\/extern-lsp/.test(e.message));
});

test('resolveServerPath falls back to the bundled binary for the platform', () => {
  const seen: string[] = [];
  const isExecutable = (p: string) => {
    seen.push(p);
    return p === path.join('/ext', 'bin', 'linux-x64', 'extern-lsp') || p === path.join('/ext', 'bin', 'win32-x64', 'extern-lsp.exe');
  };
  assert.deepStrictEqual(resolveServerPath({ setting: '', extensionPath: '/ext', platform: 'linux', arch: 'x64', isExecutable }), {
    path: path.join('/ext', 'bin', 'linux-x64', 'extern-lsp'),
    source: 'bundled',
  });
  assert.strictEqual(
    resolveServerPath({ setting: '  ', extensionPath: '/ext', platform: 'win32', arch: 'x64', isExecutable }).path,
    path.join('/ext', 'bin', 'win32-x64', 'extern-lsp.exe'),
  );
  assert.throws(
    () => resolveServerPath({ setting: '', extensionPath: '/ext', platform: 'darwin', arch: 'arm64', envPath: '/usr/bin', isExecutable }),
    (e: Error) => /darwin-arm64/.test(e.message) && /PATH/.test(e.message) && /externLsp\.path/.test(e.message),
  );
});

test('resolveServerPath takes extern-lsp from PATH when none is bundled', () => {
  const isExecutable = (p: string) => p === '/venv/bin/extern-lsp' || p === '/ext/bin/linux-x64/extern-lsp';
  const base = { setting: '', platform: 'linux', isExecutable, envPath: '/usr/bin::/venv/bin' };
  // The bundled one wins when it exists...
  assert.deepStrictEqual(resolveServerPath({ ...base, extensionPath: '/ext', arch: 'x64' }), {
    path: '/ext/bin/linux-x64/extern-lsp',
    source: 'bundled',
  });
  // ... and PATH is searched in order when it does not.
  assert.deepStrictEqual(resolveServerPath({ ...base, extensionPath: '/ext', arch: 'arm64' }), { path: '/venv/bin/extern-lsp', source: 'path' });
});

test('resolveServerPath checks the real file system by default', () => {
  assert.strictEqual(resolveServerPath({ setting: process.execPath, extensionPath: '/ext', platform: 'linux', arch: 'x64' }).path, process.execPath);
  assert.throws(() => resolveServerPath({ setting: __filename, extensionPath: '/ext', platform: 'linux', arch: 'x64' }), ResolveError);
});

test('expandPath leaves absolute paths alone', () => {
  assert.strictEqual(expandPath('/usr/bin/extern-lsp', '/ws', '/home/u'), '/usr/bin/extern-lsp');
  assert.strictEqual(expandPath('~', undefined, '/home/u'), '/home/u');
});
