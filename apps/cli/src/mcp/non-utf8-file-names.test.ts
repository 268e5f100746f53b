import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, type CliSandbox } from '../test-support/cli-sandbox.js';
import { connectMcpTestClient, resultText } from '../test-support/mcp-test-client.js';

// Exact file names: a file whose name is not valid UTF-8, through `openwork mcp` and the SDK's own client:
// the spelling glob and grep show arrives intact over JSON-RPC and works when sent back.

let sandbox: CliSandbox;
let client: Client | undefined;
beforeEach(async () => {
  sandbox = await createCliSandbox();
});
afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  await sandbox.remove();
});

describe('issue 25: a file name that is not valid UTF-8 through openwork mcp', () => {
  it('glob and grep show dir/caf\\xE9.txt, and read and edit take that spelling back', async () => {
    mkdirSync(`${sandbox.workspace}/dir`);
    const file = Buffer.concat([Buffer.from(`${sandbox.workspace}/dir/caf`), Buffer.of(0xe9), Buffer.from('.txt')]);
    writeFileSync(file, 'needle\n');
    ({ client } = await connectMcpTestClient(sandbox));
    const call = async (name: string, args: Record<string, unknown>) => resultText(await client!.callTool({ name, arguments: args }));
    expect(await call('glob', { pattern: '**/*.txt' })).toBe('dir/caf\\xE9.txt');
    expect(await call('grep', { pattern: 'needle', outputMode: 'files_with_matches' })).toBe('dir/caf\\xE9.txt');
    expect(await call('read', { path: 'dir/caf\\xE9.txt' })).toBe('1\tneedle');
    expect(await call('edit', { filePath: 'dir/caf\\xE9.txt', oldString: 'needle', newString: 'thread' })).toContain('dir/caf\\xE9.txt');
    expect(readFileSync(file, 'utf8')).toBe('thread\n');
  });
});
