import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients } from '../test-support/mcp-test-client.js';
import { writeMediaWorkspace, type MediaFile } from '../test-support/media-workspace.js';

// Clients that give the model only `structuredContent` whenever a result has it (Claude Code,
// Codex) must still give it the whole result: `openwork mcp` as a real process, the SDK's own
// Client over stdio, on a temp HOME, OpenWork home and workspace. Each result is read twice, as a
// client that forwards `content` does and as one that forwards `structuredContent` alone does.

let sandbox: CliSandbox;
const { connect, closeAll } = mcpTestClients(() => sandbox);
let client: Client;
let tools: Tool[];
let images: MediaFile[];

beforeEach(async () => {
  sandbox = await createCliSandbox();
  await writeFile(join(sandbox.workspace, 'notes.txt'), 'alpha\nbeta\ngamma\n');
  ({ images } = await writeMediaWorkspace(sandbox.workspace));
  ({ client } = await connect());
  ({ tools } = await client.listTools());
});

afterEach(async () => {
  await closeAll();
  await sandbox.remove();
});

async function call(name: string, input: Record<string, unknown>): Promise<CallToolResult> {
  return CallToolResultSchema.parse(await client.callTool({ name, arguments: input }));
}

/** What a client that forwards `content` gives the model as text: the text parts. */
function textViaContent(result: CallToolResult): string {
  return result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** What a client that forwards only `structuredContent` gives the model: its JSON. */
function viaStructuredContent(result: CallToolResult): { text: string; imageNote?: string; status: string } & Record<string, unknown> {
  expect(result.structuredContent).toBeDefined();
  return JSON.parse(JSON.stringify(result.structuredContent)) as { text: string; imageNote?: string; status: string };
}

/** Both kinds of client give the model the same result text; the tool declares no outputSchema (nothing to validate against). */
function expectSameTextBothWays(name: string, result: CallToolResult): string {
  const text = textViaContent(result);
  const structured = viaStructuredContent(result);
  expect(structured.text).toBe(text);
  expect(Object.keys(structured)[0]).toBe('text');
  expect(tools.find((tool) => tool.name === name)?.outputSchema).toBeUndefined();
  return text;
}

describe('openwork mcp: structuredContent carries the model-visible result', () => {
  it('read: the file contents, whichever field the client forwards', async () => {
    const result = await call('read', { path: 'notes.txt' });
    expect(result.isError).toBe(false);
    expect(expectSameTextBothWays('read', result)).toBe('1\talpha\n2\tbeta\n3\tgamma');
    expect(viaStructuredContent(result)).toEqual({ text: '1\talpha\n2\tbeta\n3\tgamma' });
  });

  it('grep: the matches, whichever field the client forwards', async () => {
    const result = await call('grep', { pattern: 'gam+a' });
    expect(result.isError).toBe(false);
    const text = expectSameTextBothWays('grep', result);
    expect(text).toContain('notes.txt');
    expect(text).toContain('gamma');
  });

  it('bash: the command output, whichever field the client forwards', async () => {
    const result = await call('bash', { command: 'echo first-line; echo second-line >&2; cat notes.txt' });
    expect(result.isError).toBe(false);
    const text = expectSameTextBothWays('bash', result);
    expect(text).toContain('first-line');
    expect(text).toContain('second-line');
    expect(text).toContain('gamma');
  });

  it('an error: the error text, and isError, whichever field the client forwards', async () => {
    const missing = await call('read', { path: 'missing.txt' });
    expect(missing.isError).toBe(true);
    const text = expectSameTextBothWays('read', missing);
    expect(text).toContain('missing.txt');
    // A generic failure: isError says so, the text says why; the code is the host's (_meta).
    expect(viaStructuredContent(missing)).toEqual({ text });
    expect(missing._meta?.['openwork/result']).toMatchObject({ status: 'failed', error: { code: 'execution_failed' } });
    const unread = await call('edit', { filePath: 'notes.txt', oldString: 'beta', newString: 'x' });
    expect(unread.isError).toBe(true);
    expect(expectSameTextBothWays('edit', unread)).toMatch(/read/i);
  });

  it('an image: the caption either way; structuredContent says that the image is image content only', async () => {
    const [png] = images;
    const result = await call('read', { path: png!.name });
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([
      { type: 'text', text: png!.caption },
      { type: 'image', data: png!.bytes.toString('base64'), mimeType: 'image/png' },
    ]);
    expect(expectSameTextBothWays('read', result)).toBe(png!.caption);
    const structured = viaStructuredContent(result);
    expect(structured.imageNote).toBe(
      `This result also has 1 image (image/png, ${png!.bytes.length} bytes) as MCP image content, which is not part of this structured content; a client that shows the model only structured content does not show it.`,
    );
    // The image bytes go once, as image content, never as base64 text in structuredContent.
    expect(JSON.stringify(structured)).not.toContain(png!.bytes.toString('base64'));
  });

  it('a text result without images has no image note', async () => {
    const result = await call('read', { path: 'notes.txt' });
    expect(viaStructuredContent(result)).not.toHaveProperty('imageNote');
  });

  it('a result at the 32,000-byte cut: structuredContent holds the same bounded text, never more', async () => {
    await writeFile(join(sandbox.workspace, 'big.txt'), 'The quick brown fox jumps over the lazy dog.\n'.repeat(5000));
    const result = await call('read', { path: 'big.txt' });
    const text = expectSameTextBothWays('read', result);
    expect(Buffer.byteLength(text)).toBeGreaterThan(30_000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(32_000);
    // The text goes twice on the wire (once per kind of client), nothing else of it does.
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(2 * Buffer.byteLength(JSON.stringify(text)) + 1024);
    expect(viaStructuredContent(result)).toEqual({ text });
  });
});
