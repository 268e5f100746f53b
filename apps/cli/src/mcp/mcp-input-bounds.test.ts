import { access, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients, resultText } from '../test-support/mcp-test-client.js';
import { eventually } from '../test-support/session-process.js';

// Bounded input (docs/decisions/0065-cli-bounded-input-lines.md): `openwork mcp` exited without a word on a request over 10 MiB (the SDK's
// stdio buffer), and an MCP client could make `/` a workspace root.

let sandbox: CliSandbox;
const { connect, closeAll } = mcpTestClients(() => sandbox);
beforeEach(async () => {
  sandbox = await createCliSandbox();
  await writeFile(join(sandbox.workspace, 'notes.txt'), 'alpha\n');
});
afterEach(async () => {
  await closeAll();
  await sandbox.remove();
});

describe('openwork mcp with a message over 8 MiB', () => {
  it('answers it with a JSON-RPC error, logs one line on stderr and goes on serving', async () => {
    const { client, stderr } = await connect();
    const content = 'x'.repeat(12 * 1024 * 1024); // over the SDK's own 10 MiB too
    const oversized = client.callTool({ name: 'write', arguments: { path: 'big.txt', content } });
    const error = await oversized.then(() => undefined, (reason: unknown) => reason);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32600);
    expect((error as McpError).message).toContain('The message is 12 MiB; openwork mcp reads messages of at most 8 MiB, so it was not read.');
    await expect(readFile(join(sandbox.workspace, 'big.txt'))).rejects.toThrow();

    const read = await client.callTool({ name: 'read', arguments: { path: 'notes.txt' } });
    expect(resultText(read)).toBe('1\talpha');
    expect(await eventually(() => stderr().includes('refused a message'), 100)).toBe(true);
    const lines = stderr().split('\n').filter((line) => line.includes('refused a message'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^openwork mcp: refused a message of \d+ bytes \(over the 8 MiB bound, request id \d+\); still serving$/);
  });

  it('a message just under the bound reaches the tool, which answers it', async () => {
    const { client, stderr } = await connect();
    const content = 'y'.repeat(7 * 1024 * 1024);
    const result = await client.callTool({ name: 'write', arguments: { path: 'seven.txt', content } });
    // write's own limit (1 MiB of content) answers: the transport read the whole message.
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('write takes at most');
    expect(stderr()).not.toContain('refused a message');
  });
});

describe('the workspace root / is refused; HOME is allowed with its protections', () => {
  it('--workspace / (also through .. or a link) stops openwork call, session and mcp with a text that says why and what to do', async () => {
    const link = join(sandbox.root, 'to-root');
    await symlink('/', link);
    for (const argv of [
      ['call', 'read', '{"path":"etc/hostname"}', '--workspace', '/'],
      ['session', '--workspace', `${sandbox.workspace}/../../../../../../..`],
      ['mcp', '--workspace', link],
    ]) {
      const run = await runOpenwork(argv, { environment: sandbox.environment, cwd: sandbox.workspace });
      expect({ status: run.status, signal: run.signal }).toEqual({ status: 2, signal: null });
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('is / (the whole file system), which openwork refuses as a workspace root');
      expect(run.stderr).toContain('Use the project\'s folder instead (--workspace ~/project');
    }
    const fromRoot = await runOpenwork(['call', 'list', '{}'], { environment: sandbox.environment, cwd: '/' });
    expect({ status: fromRoot.status, signal: fromRoot.signal, stderr: fromRoot.stderr }).toMatchObject({ status: 2, signal: null });
    // Refused before anything opened: not even the store was created.
    await expect(access(sandbox.openworkHome)).rejects.toThrow();
    expect(fromRoot.stderr).toContain('The current directory (the workspace when --workspace is not given) is /');
  });

  it('an MCP root of / is refused with a log line; the session keeps its --workspace', async () => {
    const { client, stderr } = await connect({ roots: () => ['/'] });
    expect(await eventually(() => stderr().includes("openwork mcp: ignored the client's root file:///: it is / (the whole file system)"), 100)).toBe(true);
    expect(resultText(await client.callTool({ name: 'read', arguments: { path: 'notes.txt' } }))).toBe('1\talpha');
    // Relative paths still mean the workspace: with / as the root, `.` would list the file system.
    const listed = resultText(await client.callTool({ name: 'list', arguments: { path: '.' } }));
    expect(listed).toContain('notes.txt');
    expect(listed).not.toMatch(/\betc\b/);
  });

  it('an MCP root equal to HOME is not used (decision 0098), and the home protections hold for its paths', async () => {
    await writeFile(join(sandbox.home, 'todo.txt'), 'home file\n');
    await mkdir(join(sandbox.home, '.ssh'));
    await writeFile(join(sandbox.home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
    const { client } = await connect({ roots: () => [sandbox.home] });
    // The session keeps its --workspace: a path relative to HOME does not resolve there.
    expect(resultText(await client.callTool({ name: 'read', arguments: { path: 'todo.txt' } }))).not.toBe('1\thome file');
    const key = await client.callTool({ name: 'read', arguments: { path: join(sandbox.home, '.ssh', 'id_rsa') } });
    expect(key.isError).toBe(true);
    expect(resultText(key)).not.toContain('PRIVATE KEY');
    const bashrc = await client.callTool({ name: 'write', arguments: { path: join(sandbox.home, '.bashrc'), content: 'curl x | sh\n' } });
    expect(bashrc.isError).toBe(true);
    await expect(readFile(join(sandbox.home, '.bashrc'))).rejects.toThrow();
    const config = await client.callTool({ name: 'write', arguments: { path: join(sandbox.home, '.openwork', 'config.json'), content: '{}' } });
    expect(config.isError).toBe(true);
  });
});
