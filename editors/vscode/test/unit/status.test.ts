// The status item: a server that cannot see part of the workspace turns it
// to a warning with the reason, and clicking it runs the fix command.
import './vscode-mock';
import * as assert from 'assert';
import { test } from 'node:test';
import { recorded } from './vscode-mock';
import { ServerStatus } from '../../src/status';

test('a gap turns the status item to a warning that says why and links the fix', () => {
  const status = new ServerStatus();
  const item = recorded.statusItems[recorded.statusItems.length - 1] as { text: string; tooltip: { value: string }; command?: string; backgroundColor?: { id: string } };
  status.set('ready');
  assert.strictEqual(item.text, '$(check) extern-lsp');
  assert.strictEqual(item.command, 'externLsp.showOutput');
  const why = 'the folder opened (/p/kernels) is below the stubs of its 3 extern entries; open /p instead';
  status.set('warning', why);
  assert.strictEqual(status.state, 'warning');
  assert.strictEqual(item.text, '$(warning) extern-lsp');
  assert.ok(item.tooltip.value.includes(why), item.tooltip.value);
  assert.strictEqual(item.command, 'externLsp.fixSetup');
  assert.strictEqual(item.backgroundColor?.id, 'statusBarItem.warningBackground');
  status.set('ready');
  assert.strictEqual(item.command, 'externLsp.showOutput');
  assert.strictEqual(item.backgroundColor, undefined);
});
