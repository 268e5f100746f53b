import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients } from '../test-support/mcp-test-client.js';

// What the model receives per call from a client that gives it `structuredContent` (Claude Code,
// Codex: the JSON of that object whenever it is present), and what every client fetches once: the
// tool list. `openwork mcp` as a real process, the SDK's own Client over stdio, temp homes.

/** The most bytes `tools/list` may take (the whole JSON-RPC result, as the client receives it). */
const MAX_TOOL_LIST_BYTES = 15_000;
/** The most bytes a structured-only client may give the model beyond the result's own text. */
const MAX_OVERHEAD_BYTES = 60;

let sandbox: CliSandbox;
const { connect, closeAll } = mcpTestClients(() => sandbox);
let client: Client;

beforeEach(async () => {
  sandbox = await createCliSandbox();
  await writeFile(join(sandbox.workspace, 'notes.txt'), 'alpha\nbeta\ngamma\n');
  ({ client } = await connect());
});

afterEach(async () => {
  await closeAll();
  await sandbox.remove();
});

async function call(name: string, input: Record<string, unknown>): Promise<CallToolResult> {
  return CallToolResultSchema.parse(await client.callTool({ name, arguments: input }));
}

function textOf(result: CallToolResult): string {
  return result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** What Claude Code and Codex give the model: the JSON of `structuredContent`; and its bytes beyond the text. */
function modelReceives(result: CallToolResult): { json: string; overhead: number } {
  const json = JSON.stringify(result.structuredContent);
  return { json, overhead: Buffer.byteLength(json) - Buffer.byteLength(textOf(result)) };
}

function hostSummary(result: CallToolResult): Record<string, unknown> {
  return (result._meta as Record<string, Record<string, unknown>> | undefined)?.['openwork/result'] ?? {};
}

describe('openwork mcp: compact tool list and results', () => {
  it('tools/list is at most 15,000 bytes, with the same twelve tools, titles and input schemas, and no outputSchema', async () => {
    const listed = await client.listTools();
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThanOrEqual(MAX_TOOL_LIST_BYTES);
    expect(listed.tools.map((tool) => tool.name)).toEqual([
      'read', 'write', 'edit', 'grep', 'glob', 'list', 'bash', 'bash_output', 'bash_input', 'bash_kill', 'conversation_history', 'update_plan',
    ]);
    for (const tool of listed.tools) {
      expect(tool.outputSchema, tool.name).toBeUndefined();
      expect(tool.title, tool.name).toMatch(/\w/);
      expect(tool.description, tool.name).toMatch(/\w/);
      expect(tool.inputSchema.type).toBe('object');
      // The title once, at the top level; not again in the annotations.
      expect(tool.annotations, tool.name).not.toHaveProperty('title');
    }
    // No bound that says nothing (zod's largest safe integer).
    expect(JSON.stringify(listed)).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it('a read: the model gets the text and at most 60 bytes more; the host summary is in _meta', async () => {
    const result = await call('read', { path: 'notes.txt' });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ text: '1\talpha\n2\tbeta\n3\tgamma' });
    expect(modelReceives(result).overhead).toBeLessThanOrEqual(MAX_OVERHEAD_BYTES);
    expect(hostSummary(result)).toMatchObject({ callId: expect.stringMatching(/^call_/), status: 'succeeded', error: null, sandboxDenied: false, artifacts: [] });
  });

  it('a background poll: its output and status line only — no task summary for the model', async () => {
    const started = await call('bash', { command: 'echo started; read line; echo "got $line"', runInBackground: true, yieldMs: 2_000 });
    const taskId = /task (bg-[\w-]+)/.exec(textOf(started))?.[1];
    expect(taskId).toBeDefined();
    await call('bash_input', { taskId: taskId!, input: 'x\n' });
    const poll = await call('bash_output', { taskId: taskId!, waitMs: 5_000 });
    expect(poll.isError).toBe(false);
    expect(Object.keys(poll.structuredContent ?? {})).toEqual(['text']);
    const { json, overhead } = modelReceives(poll);
    expect(overhead).toBeLessThanOrEqual(MAX_OVERHEAD_BYTES);
    expect(json).not.toContain('background_task');
    // The task's artifact still reaches the host.
    expect(hostSummary(poll)['artifacts']).toEqual([expect.objectContaining({ kind: 'background_task' })]);
  });

  it('a refusal: the message once (as the text), the error code, at most 60 bytes more', async () => {
    const outside = join(sandbox.root, 'outside');
    await mkdir(outside);
    const target = join(outside, 'x.txt');
    const refused = await call('write', {
      path: target,
      content: 'x\n',
      sandboxPermissions: { paths: [{ path: target, access: 'write', scope: 'exact' }] },
      justification: 'write outside',
    });
    expect(refused.isError).toBe(true);
    const text = textOf(refused);
    expect(refused.structuredContent).toEqual({ text, error: 'permission_denied' });
    const { json, overhead } = modelReceives(refused);
    expect(overhead).toBeLessThanOrEqual(MAX_OVERHEAD_BYTES);
    // The message is not repeated: the JSON holds the text once.
    expect(json.split(JSON.stringify(text).slice(1, 40)).length - 1).toBe(1);
    expect(hostSummary(refused)).toMatchObject({ status: 'denied', error: { code: 'permission_denied', retryable: expect.any(Boolean) } });
    expect(JSON.stringify(hostSummary(refused))).not.toContain(text.slice(0, 30));
  });

  it('a generic failure carries no code (isError says it failed; the text says why)', async () => {
    const missing = await call('read', { path: 'missing.txt' });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toEqual({ text: textOf(missing) });
    expect(hostSummary(missing)).toMatchObject({ status: 'failed', error: { code: 'execution_failed' } });
  });

  it('an edit: the summary line for the model; the change (hashes, resource) for the host only', async () => {
    await call('read', { path: 'notes.txt' });
    const edited = await call('edit', { filePath: 'notes.txt', oldString: 'beta', newString: 'BETA' });
    expect(edited.isError).toBe(false);
    expect(edited.structuredContent).toEqual({ text: textOf(edited) });
    expect(modelReceives(edited).overhead).toBeLessThanOrEqual(MAX_OVERHEAD_BYTES);
    const [change] = hostSummary(edited)['artifacts'] as Record<string, unknown>[];
    expect(change).toMatchObject({ kind: 'file_change', path: 'notes.txt', change: 'modified', resource: expect.stringMatching(/^openwork:\/\/changes\//) });
  });
});
