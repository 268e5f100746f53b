import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients, resultText } from '../test-support/mcp-test-client.js';
import { eventually, processesWith } from '../test-support/session-process.js';

// MCP clients (docs/decisions/0066-cli-mcp-server-behaviour.md): `openwork mcp` as a real process, driven by the SDK's
// own Client over stdio, on a temp HOME, OpenWork home and workspace.

let sandbox: CliSandbox;
const { connect, closeAll } = mcpTestClients(() => sandbox);

beforeEach(async () => {
  sandbox = await createCliSandbox();
  await writeFile(join(sandbox.workspace, 'notes.txt'), 'alpha\nbeta\ngamma\n');
});

afterEach(async () => {
  await closeAll();
  await sandbox.remove();
});

describe('openwork mcp in real clients', () => {
  it('advertises only what is true: no tools.listChanged, a logging capability, change resources', async () => {
    const { client } = await connect();
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.tools?.listChanged).not.toBe(true);
    expect(capabilities?.logging).toEqual({});
    expect(capabilities?.resources).toBeDefined();
  });

  it('every tool has a title and no outputSchema; results carry compact structured content and the host summary in _meta', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/\w/);
      expect(tool.title).not.toBe(tool.name);
      expect(tool.outputSchema).toBeUndefined();
    }
    expect(tools.find((tool) => tool.name === 'read')?.title).toBe('Read file');
    const read = await client.callTool({ name: 'read', arguments: { path: 'notes.txt' } });
    expect(Object.keys(read.structuredContent ?? {})).toEqual(['text']);
    expect(read._meta?.['openwork/result']).toMatchObject({ status: 'succeeded', error: null, sandboxDenied: false, artifacts: [] });
    const missing = await client.callTool({ name: 'read', arguments: { path: 'missing.txt' } });
    expect(missing.isError).toBe(true);
    expect(missing._meta?.['openwork/result']).toMatchObject({ status: 'failed', error: { code: expect.any(String), retryable: expect.any(Boolean) } });
    const edited = await client.callTool({ name: 'edit', arguments: { filePath: 'notes.txt', oldString: 'beta', newString: 'BETA' } });
    expect(edited.isError).toBe(false);
  });

  it("a large edit's response stays small: no contents in structuredContent or _meta; the change is a resource", async () => {
    const { client } = await connect();
    const line = 'const value = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";\n';
    const big = line.repeat(Math.ceil((870 * 1024) / line.length));
    await writeFile(join(sandbox.workspace, 'big.js'), `// header\n${big}`);
    await client.callTool({ name: 'read', arguments: { path: 'big.js', limit: 1 } });
    const result = await client.callTool({ name: 'edit', arguments: { filePath: 'big.js', oldString: '// header', newString: '// HEADER' } });
    expect(result.isError).toBe(false);
    const size = Buffer.byteLength(JSON.stringify(result));
    expect(Buffer.byteLength(JSON.stringify(result._meta))).toBeLessThan(64 * 1024);
    expect(size).toBeLessThan(4 * 1024); // it was 1,869,007 bytes: both contents and the hunks
    expect(JSON.stringify(result)).not.toContain('0123456789abcdef');
    const [summary] = (result._meta?.['openwork/result'] as { artifacts: Record<string, unknown>[] }).artifacts;
    expect(summary).toMatchObject({ kind: 'file_change', path: 'big.js', change: 'modified', additions: 1, deletions: 1, undone: false });
    expect(summary?.['beforeHash']).toMatch(/^[0-9a-f]{64}$/);
    expect(summary?.['afterHash']).toMatch(/^[0-9a-f]{64}$/);
    const listed = await client.listResources();
    expect(listed.resources.map((resource) => resource.uri)).toContain(summary?.['resource']);
    const whole = await client.readResource({ uri: String(summary?.['resource']) });
    const artifact = JSON.parse((whole.contents[0] as { text: string }).text) as { change: { afterContent: string } };
    expect(artifact.change.afterContent.startsWith('// HEADER\nconst value')).toBe(true);
    await expect(client.readResource({ uri: 'openwork://changes/no-such-change' })).rejects.toThrow(/No file change of this session/);
  });

  it('a client that declares roots but never answers roots/list does not hold a call: --workspace serves it, the roots apply when they arrive', async () => {
    const other = join(sandbox.root, 'other');
    await mkdir(other);
    await writeFile(join(other, 'notes.txt'), 'from the client root\n');
    let answer: (() => void) | undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const { client } = await connect({
      roots: async () => {
        await answered; // the answer is held until the test lets it go
        return [{ uri: pathToFileURL(other).href }];
      },
    });
    // The call completes while the roots request is still unanswered: on the --workspace root.
    expect(resultText(await client.callTool({ name: 'read', arguments: { path: 'notes.txt' } }))).toBe('1\talpha\n2\tbeta\n3\tgamma');
    answer?.();
    let seen = '';
    for (let attempt = 0; attempt < 50 && seen !== '1\tfrom the client root'; attempt += 1) {
      seen = resultText(await client.callTool({ name: 'read', arguments: { path: 'notes.txt' } }));
    }
    expect(seen).toBe('1\tfrom the client root');
  });

  it('invalid roots are dropped one by one with a one-line warning each; the valid root applies', async () => {
    const connected = await connect({
      rootsListChanged: false,
      roots: () => [{ uri: 'https://example.invalid/repo' }, { uri: pathToFileURL(join(sandbox.root, 'nowhere')).href }, { uri: pathToFileURL(sandbox.workspace).href }],
    });
    const { client } = connected;
    let seen = '';
    for (let attempt = 0; attempt < 50 && !connected.stderr().includes('workspace roots'); attempt += 1) {
      seen = resultText(await client.callTool({ name: 'list', arguments: {} }));
    }
    expect(seen).toContain('notes.txt');
    const warnings = connected.stderr().split('\n').filter((line) => line.includes('ignored the client'));
    expect(warnings).toEqual([
      "openwork mcp: ignored the client's root https://example.invalid/repo: only file:// roots name a folder of this machine",
      `openwork mcp: ignored the client's root ${pathToFileURL(join(sandbox.root, 'nowhere')).href}: no such folder`,
    ]);
    expect(connected.stderr()).not.toMatch(/ZodError|invalid_type|"code":/);
    expect(connected.logs()).toEqual(expect.arrayContaining(warnings));
  });

  it('a client that goes away without a cancel notice ends the running call and its processes', async () => {
    const connected = await connect();
    const marker = `${Math.floor(Math.random() * 1e6) + 1000}.75`;
    const call = connected.client.callTool({ name: 'bash', arguments: { command: `sleep ${marker}; echo done` } });
    call.catch(() => undefined);
    expect(await eventually(() => processesWith(marker).length > 0)).toBe(true);
    // Close stdin the way a crashed or killed client does: no notifications/cancelled is sent.
    const server = connected.transport.pid;
    expect(server).not.toBeNull();
    await connected.transport.close();
    expect(await eventually(() => processesWith(marker).length === 0)).toBe(true);
    expect(await eventually(async () => !(await isAlive(server ?? 0)))).toBe(true);
  });

  it(
    'an approval answered after 65 s still approves (no 60 s cut), with progress keep-alives for the client',
    async () => {
      const asked: string[] = [];
      const { client } = await connect({
        elicitation: async (message) => {
          asked.push(message);
          await new Promise((resolve) => setTimeout(resolve, 65_000));
          return { action: 'accept', content: { approve: true } };
        },
      });
      const target = join(sandbox.root, 'outside.txt');
      const progress: string[] = [];
      // The client's own request timeout stays the SDK default (60 s): the keep-alives reset it.
      const result = await client.callTool(
        { name: 'write', arguments: { path: target, content: 'approved late\n', justification: 'the test writes outside', sandboxPermissions: { paths: [{ path: target, access: 'write', scope: 'exact' }] } } },
        undefined,
        { onprogress: (update) => progress.push(update.message ?? ''), resetTimeoutOnProgress: true },
      );
      expect(asked).toHaveLength(1);
      expect(result.isError).toBe(false);
      expect(await readFile(target, 'utf8')).toBe('approved late\n');
      expect(progress.filter((message) => message === 'waiting for the user to approve this call').length).toBeGreaterThanOrEqual(4);
    },
    120_000,
  );
});

async function isAlive(pid: number): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return status !== '' && !/^State:\s+Z/m.test(status);
}
