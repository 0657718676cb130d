import * as assert from 'assert';
import { test } from 'node:test';
import { diagnosticCode, parseRules, run } from '../../src/cli';

test('parseRules reads a bare list and a {rules: [...]} object', () => {
  const rules = [
    { code: 'EXT004', name: 'syncall-aiv-only', summary: 'bare SyncAll() in a mixed kernel' },
    { Code: 'EXT001', Name: 'gm-scalar-read', Doc: 'scalar read from GM' },
    { name: 'no-code' },
    'junk',
  ];
  const want = [
    { code: 'EXT004', name: 'syncall-aiv-only', summary: 'bare SyncAll() in a mixed kernel' },
    { code: 'EXT001', name: 'gm-scalar-read', summary: 'scalar read from GM' },
  ];
  assert.deepStrictEqual(parseRules(JSON.stringify(rules)), want);
  assert.deepStrictEqual(parseRules(JSON.stringify({ rules })), want);
  assert.throws(() => parseRules('{"x": 1}'), /list of rules/);
});

test('diagnosticCode handles every shape the client produces', () => {
  assert.strictEqual(diagnosticCode('EXT004'), 'EXT004');
  assert.strictEqual(diagnosticCode(4), '4');
  assert.strictEqual(diagnosticCode({ value: 'EXT101', target: {} }), 'EXT101');
  assert.strictEqual(diagnosticCode(undefined), '');
});

test('run returns stdout and reports stderr on failure', async () => {
  const ok = await run(process.execPath, ['-e', 'process.stdout.write("table")']);
  assert.strictEqual(ok.stdout, 'table');
  await assert.rejects(run(process.execPath, ['-e', 'process.stderr.write("no such rule"); process.exit(2)']), /no such rule/);
  // `abi` exits 1 with its table when the C++ disagrees with the stub.
  const table = await run(process.execPath, ['-e', 'process.stdout.write("table"); process.exit(1)'], undefined, 20000, [0, 1]);
  assert.strictEqual(table.stdout, 'table');
  await assert.rejects(run(process.execPath, ['-e', 'process.exit(1)']), /failed|Command failed/);
  await assert.rejects(run('/no/such/extern-lsp', ['abi'], undefined, 20000, [0, 1]), /ENOENT|no such/);
});
