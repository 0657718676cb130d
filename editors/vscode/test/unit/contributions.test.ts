// package.json's contributions must match what the code registers and reads.
import './vscode-mock';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { test } from 'node:test';
import { recorded } from './vscode-mock';
import * as ext from '../../src/extension';
import { clientOnlyKeys, toServerConfig } from '../../src/config';

const root = path.resolve(__dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

async function activated() {
  if (recorded.commands.size === 0) {
    const ctx = { subscriptions: [] as unknown[], extensionPath: path.join(root, 'no-such-dir') };
    await ext.activate(ctx as never);
  }
  return recorded;
}

test('every contributed command is registered, and nothing else', async () => {
  const r = await activated();
  const contributed = (pkg.contributes.commands as { command: string }[]).map((c) => c.command).sort();
  assert.deepStrictEqual([...r.commands.keys()].sort(), contributed);
  assert.deepStrictEqual([...ext.commandIds].sort(), contributed);
  for (const m of pkg.contributes.menus.commandPalette as { command: string }[]) {
    assert.ok(contributed.includes(m.command), `menu names unknown command ${m.command}`);
  }
});

test('contributed settings are exactly the client-only keys plus what the server receives', () => {
  const props = Object.keys(pkg.contributes.configuration.properties).sort();
  // Every setting given a valid value of its declared type, so optional keys
  // the server receives only when set (debounce) count too.
  const valueOf = (k: string): unknown => {
    const p = pkg.contributes.configuration.properties[`externLsp.${k}`];
    if (!p) {
      return undefined;
    }
    if (p.enum) {
      return p.enum[p.enum.length - 1];
    }
    const types: string[] = Array.isArray(p.type) ? p.type : [p.type];
    if (types.includes('number') || types.includes('integer')) {
      return 1;
    }
    if (types.includes('boolean')) {
      return true;
    }
    if (types.includes('array')) {
      return [];
    }
    if (types.includes('object')) {
      return {};
    }
    return p.default;
  };
  const serverKeys = Object.keys(toServerConfig({ get: valueOf as never })).map((k) => `externLsp.${k}`);
  const clientKeys = clientOnlyKeys.map((k) => `externLsp.${k}`);
  assert.deepStrictEqual(props, [...serverKeys, ...clientKeys].sort());
  // The language client reads <id>.trace.server, so the client id must be the section.
  assert.strictEqual(ext.section, 'externLsp');
});

test('setting defaults in package.json agree with the server defaults', () => {
  const props = pkg.contributes.configuration.properties;
  const defaults = toServerConfig({ get: (k: string) => props[`externLsp.${k}`].default });
  assert.deepStrictEqual(defaults, toServerConfig({ get: () => undefined }));
  assert.deepStrictEqual(props['externLsp.severity'].additionalProperties.enum, ['error', 'warning', 'info', 'hint', 'off']);
});

test('activation events cover the document selector', () => {
  const events: string[] = pkg.activationEvents;
  for (const sel of ext.documentSelector) {
    if ('language' in sel) {
      assert.ok(events.includes(`onLanguage:${sel.language}`), `no activation event for ${sel.language}`);
    }
  }
  assert.ok(pkg.contributes.languages.some((l: { id: string; extensions: string[] }) => l.id === 'cpp' && l.extensions.includes('.cce') && l.extensions.includes('.asc')));
  assert.strictEqual(pkg.main, './dist/extension.js');
});

test('without a binary the status bar shows the error and its reason', async () => {
  const r = await activated();
  // activate() starts the client without awaiting it.
  await new Promise((res) => setTimeout(res, 10));
  const item = r.statusItems[0];
  assert.match(item.text, /error/);
  const tip = item.tooltip as { value: string };
  assert.match(tip.value, /no bundled extern-lsp for/);
  assert.ok(r.output.join('').includes('externLsp.path'));
  assert.deepStrictEqual(r.contentProviders, ['extern-lsp']);
});
