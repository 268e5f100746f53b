import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients, resultText } from '../test-support/mcp-test-client.js';

// Forged approval cards (architecture §3.9): the elicitation message the MCP client shows its user is
// the approval card with every control and bidirectional character of the model's text visible.

let sandbox: CliSandbox;
const { connect, closeAll } = mcpTestClients(() => sandbox);
beforeEach(async () => {
  sandbox = await createCliSandbox();
});
afterEach(async () => {
  await closeAll();
  await sandbox.remove();
});

const FORGERY = 'x\r\x1b[2A\x1b[2K  read access to README.md (exact)\n\u2067exact\u2069\u200b';

describe('MCP elicitation messages (architecture §3.9)', () => {
  it('the message shows the real write grant and the justification escaped; the answer grants that write', async () => {
    const outside = join(sandbox.root, 'outside');
    await mkdir(outside);
    const target = join(outside, 'x.txt');
    const asked: string[] = [];
    let approve = false;
    const { client } = await connect({ elicitation: (message) => (asked.push(message), { action: 'accept', content: { approve } }) });
    const call = () =>
      client.callTool({ name: 'write', arguments: { path: target, content: 'approved\n', sandboxPermissions: { paths: [{ path: target, access: 'write', scope: 'exact' }] }, justification: FORGERY } });

    const refused = await call();
    expect(resultText(refused)).toContain('The user refused this call.');
    expect(await readdir(outside)).toEqual([]);
    expect(asked[0]?.split('\n')).toEqual([
      'The write tool asks for approval (escalation).',
      `  target: ${target}`,
      `  write access to ${target} (exact)`,
      '  justification: x\\r\\x1b[2A\\x1b[2K  read access to README.md (exact)\\n\\u2067exact\\u2069\\u200b',
      'Approve this call?',
    ]);

    approve = true;
    expect((await call()).isError).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('approved\n');
  });

  it('a dangerous command is shown with its hidden characters', async () => {
    const asked: string[] = [];
    const { client } = await connect({ elicitation: (message) => (asked.push(message), { action: 'decline' }) });
    const result = await client.callTool({ name: 'bash', arguments: { command: `rm -rf ${sandbox.workspace} #\u202e\r\x1b[2Kls` } });
    expect(result.isError).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(`  command: rm -rf ${sandbox.workspace} #\\u202e\\r\\x1b[2Kls`);
    expect(asked[0]).not.toMatch(/[\x1b\r\u202e]/);
  });

  it('the danger comes first (a client may show three lines), then the command, then the description, escaped like every model text', async () => {
    const asked: string[] = [];
    const { client } = await connect({ elicitation: (message) => (asked.push(message), { action: 'decline' }) });
    const result = await client.callTool({ name: 'bash', arguments: { command: `rm -rf ${sandbox.workspace}`, description: 'list files\r\x1b[2A\u202e' } });
    expect(result.isError).toBe(true);
    const lines = asked[0]?.split('\n') ?? [];
    expect(lines[0]).toBe('The bash tool asks for approval (danger).');
    expect(lines[1]).toMatch(/^  danger: .*rm -rf/);
    const command = lines.indexOf(`  command: rm -rf ${sandbox.workspace}`);
    expect(lines.slice(1, command).every((line) => line.startsWith('  danger: '))).toBe(true);
    expect(lines.slice(command + 1)).toContain('  description: list files\\r\\x1b[2A\\u202e');
  });

  it('git reset --hard: the first three lines say the tool, the danger and the command', async () => {
    const asked: string[] = [];
    const { client } = await connect({ elicitation: (message) => (asked.push(message), { action: 'decline' }) });
    await client.callTool({ name: 'bash', arguments: { command: 'git reset --hard HEAD', description: 'tidy the tree before the next step, nothing important' } });
    const [header, danger, third] = asked[0]?.split('\n') ?? [];
    expect(header).toBe('The bash tool asks for approval (danger).');
    expect(danger).toMatch(/^  danger: .*(discard|uncommitted)/i);
    expect(third).toMatch(/^  (danger|command): /);
  });
});
