import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '@openwork/tooling/free-port';
import { createCliSandbox, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients, resultText } from '../test-support/mcp-test-client.js';
import { backgroundTaskId, eventually, folderTree, membersOfGroups, processesWith, processGroupsOf } from '../test-support/session-process.js';

// Background bash through `openwork mcp`, driven by the MCP SDK's own client (real process, real bubblewrap).

let sandbox: CliSandbox;
const { connect, closeAll } = mcpTestClients(() => sandbox);
beforeEach(async () => {
  sandbox = await createCliSandbox();
  await mkdir(join(sandbox.workspace, '.git'), { recursive: true });
  await writeFile(join(sandbox.workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
});
afterEach(async () => {
  await closeAll();
  await sandbox.remove();
});

function artifactsOf(result: unknown): ReadonlyArray<Record<string, unknown>> {
  return ((result as CallToolResult)._meta?.['openwork/result'] as { artifacts?: Array<Record<string, unknown>> } | undefined)?.artifacts ?? [];
}

/** bash_output until `needle` shows up in `seen` or what is read after it. */
async function readUntil(client: Client, taskId: string, needle: string, seen = ''): Promise<string> {
  let text = seen;
  for (let attempt = 0; attempt < 20 && !text.includes(needle); attempt += 1) text += `\n${resultText(await client.callTool({ name: 'bash_output', arguments: { taskId, waitMs: 30_000 } }))}`;
  return text;
}

describe('openwork mcp: background bash', { timeout: 120_000 }, () => {
  it('lists the background tools with annotations that fit each', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const find = (name: string) => tools.find((tool) => tool.name === name)?.annotations;
    // MCP defaults left out: destructiveHint true, idempotentHint false, openWorldHint true.
    expect(find('bash_output')).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(find('bash_input')).toEqual({});
    expect(find('bash_kill')).toEqual({ idempotentHint: true, openWorldHint: false });
  });

  it('a dev server: started with progress for its first yield, reached by a foreground curl, killed', async () => {
    const { client } = await connect();
    await writeFile(join(sandbox.workspace, 'hello.txt'), 'hello over mcp\n');
    const port = await freePort();
    const progress: string[] = [];
    const started = await client.callTool(
      { name: 'bash', arguments: { command: `exec python3 -u -m http.server ${port} --bind 127.0.0.1`, runInBackground: true, yieldMs: 1_000, description: 'dev server' } },
      CallToolResultSchema,
      { onprogress: (update) => void progress.push(update.message ?? '') },
    );
    expect(started.isError).toBe(false);
    const taskId = backgroundTaskId({ artifacts: artifactsOf(started) });
    expect(progress).toContain('dev server');
    expect(progress).toContain(`started task ${taskId}: dev server`);
    expect(progress.some((message) => message.startsWith(`task ${taskId} is running after the first yield`))).toBe(true);
    await readUntil(client, taskId, 'Serving HTTP', resultText(started));
    const curl = await client.callTool({ name: 'bash', arguments: { command: `curl -s --max-time 10 http://127.0.0.1:${port}/hello.txt` } });
    expect(resultText(curl)).toContain('hello over mcp');
    expect(await readUntil(client, taskId, 'GET /hello.txt')).toContain('"GET /hello.txt HTTP/1.1" 200');
    const killed = await client.callTool({ name: 'bash_kill', arguments: { taskId } });
    expect(resultText(killed)).toContain(`[task ${taskId}: killed by bash_kill]`);
  });

  it('a watcher is read in three parts, each with only what it printed since the last read', async () => {
    const { client } = await connect();
    const watcher = 'prev=; while :; do cur=$(cat watched.txt 2>/dev/null); if [ "$cur" != "$prev" ]; then echo "changed: $cur"; prev=$cur; fi; sleep 0.05; done';
    const watch = backgroundTaskId({ artifacts: artifactsOf(await client.callTool({ name: 'bash', arguments: { command: watcher, runInBackground: true, yieldMs: 200 } })) });
    const parts: string[] = [];
    for (const word of ['one', 'two', 'three']) {
      // The model's writes: a running task sees them through its overlay (staged writes).
      await client.callTool({ name: 'write', arguments: { path: 'watched.txt', content: word } });
      parts.push(await readUntil(client, watch, `changed: ${word}`));
    }
    expect(parts.map((part) => [...part.matchAll(/changed: (\w+)/g)].map((match) => match[1]))).toEqual([['one'], ['two'], ['three']]);
  });

  it('a REPL (python3 -i) and a read -p prompt driven through bash_input with tty', async () => {
    const { client } = await connect();

    const started = await client.callTool({ name: 'bash', arguments: { command: 'exec python3 -i -q', runInBackground: true, tty: true, yieldMs: 1_000 } });
    const repl = backgroundTaskId({ artifacts: artifactsOf(started) });
    await readUntil(client, repl, '>>>', resultText(started));
    const answer = await client.callTool({ name: 'bash_input', arguments: { taskId: repl, input: 'print(sum(range(10)))\n' } });
    const text = await readUntil(client, repl, '45', resultText(answer));
    expect(text).toMatch(/^45$/m);
    expect(text).not.toMatch(/[\x1b\r]/);

    const asked = await client.callTool({ name: 'bash', arguments: { command: 'read -r -p "proceed? [y/N] " reply; echo "reply=$reply"', runInBackground: true, tty: true, yieldMs: 1_000 } });
    const prompt = backgroundTaskId({ artifacts: artifactsOf(asked) });
    expect(await readUntil(client, prompt, 'proceed? [y/N]', resultText(asked))).toContain('proceed? [y/N]');
    const replied = await client.callTool({ name: 'bash_input', arguments: { taskId: prompt, input: 'y\n' } });
    expect(await readUntil(client, prompt, 'reply=y', resultText(replied))).toMatch(/^reply=y$/m);
  });

  it('kill -9 of the server with two tasks running leaves no process in their groups and no placeholder', { timeout: 120_000 }, async () => {
    const token = `bg-mcp-${randomUUID()}`;
    const before = folderTree(sandbox.workspace);
    const { client, transport } = await connect();
    for (const index of [1, 2]) {
      const started = await client.callTool({ name: 'bash', arguments: { command: `echo started-${index}; sleep 300; : ${token}`, runInBackground: true, yieldMs: 0 } });
      expect(started.isError).toBe(false);
    }
    expect(await eventually(() => processesWith(token).length >= 4, 600)).toBe(true);
    const groups = processGroupsOf(processesWith(token));
    const pid = transport.pid;
    expect(pid).not.toBeNull();
    process.kill(pid ?? 0, 'SIGKILL');
    expect(await eventually(() => processesWith(token).length === 0 && membersOfGroups(groups).length === 0, 600)).toBe(true);
    expect(await eventually(() => JSON.stringify(folderTree(sandbox.workspace)) === JSON.stringify(before), 600)).toBe(true);
  });
});
